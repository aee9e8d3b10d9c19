/**
 * The {@code dmmodel} command line ({@code docs/cli.md}): {@code limits}, {@code trace}, {@code check},
 * {@code export} and {@code show} for a host snapshot or a layout file. It is written against the public API
 * alone; the implementation ({@code dev.dmmodel.impl}, which exports nothing) is bound at run time as the
 * provider of the API's services.
 */
module dev.dmmodel.cli {
    requires dev.dmmodel.api;
    requires info.picocli;

    // picocli reads the commands' annotations and sets their @Option, @Mixin and @Spec fields by reflection
    opens dev.dmmodel.cli to info.picocli;
}
