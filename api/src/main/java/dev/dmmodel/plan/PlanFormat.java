package dev.dmmodel.plan;

import dev.dmmodel.spi.ModelProviders;
import java.util.Locale;
import java.util.Objects;

/** The provisioning formats a {@link Plan} is read from. */
public enum PlanFormat {
    /**
     * A POSIX sh/bash provisioning script: {@code sfdisk}, {@code sgdisk}, {@code parted -s}, {@code wipefs},
     * {@code pvcreate}, {@code vgcreate}, {@code vgextend}, {@code lvcreate}, {@code lvconvert}, {@code lvextend},
     * {@code mkfs.*}, {@code mount}, {@code dmsetup create}, {@code mdadm --create}, {@code cryptsetup}.
     */
    SHELL("shell"),
    /** The storage commands of an anaconda kickstart file ({@code clearpart}, {@code part}, {@code volgroup}, ...). */
    KICKSTART("kickstart"),
    /** A curtin / Ubuntu autoinstall {@code storage: config:} list. */
    CURTIN("curtin"),
    /** An Ansible play or task file of {@code community.general.parted}, {@code lvg}, {@code lvol}, {@code filesystem}. */
    ANSIBLE("ansible");

    private final String displayName;

    PlanFormat(String displayName) {
        this.displayName = displayName;
    }

    /** The lower-case name used on the command line ({@code --plan-format shell}) and in JSON. */
    public String displayName() {
        return displayName;
    }

    /**
     * The format named {@code name} ({@code shell}, {@code kickstart}, {@code curtin}, {@code ansible}; any case).
     *
     * @throws IllegalArgumentException naming the value and the formats
     */
    public static PlanFormat named(String name) {
        Objects.requireNonNull(name, "name");
        for (PlanFormat f : values()) {
            if (f.displayName.equals(name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("plan format \"" + name + "\": expected shell, kickstart, curtin or ansible");
    }

    /**
     * Recognises a plan by its name ({@code .sh}, {@code .ks}, {@code .cfg} with kickstart commands) and then its
     * content (a {@code #!} line or shell commands, kickstart's {@code part}/{@code clearpart}, a YAML document with
     * {@code storage:}/{@code config:} entries of curtin's types, or YAML tasks naming the Ansible modules).
     *
     * @throws PlanException naming the source when the content fits none of the formats
     */
    public static PlanFormat detect(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        return ModelProviders.formats().detectPlanFormat(text, sourceName);
    }
}
