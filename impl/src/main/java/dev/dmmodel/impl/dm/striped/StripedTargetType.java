package dev.dmmodel.impl.dm.striped;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** dm-striped's target type ({@code drivers/md/dm-stripe.c}: {@code stripe_ctr}). */
public final class StripedTargetType implements TargetType {

    /** The one instance. */
    public static final StripedTargetType INSTANCE = new StripedTargetType();

    private StripedTargetType() {
    }

    @Override
    public String name() {
        return "striped";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return StripedTarget.class;
    }

    // stripe_ctr: count and chunk first, then the divisibility of the length, then the destinations
    @Override
    public DmTarget construct(TargetArgs a) {
        String usage = "striped <#stripes> <chunk sectors> (" + a.dev("major:minor") + " <offset>)...";
        a.arity(a.count() >= 2, usage);
        long stripes = a.number(0, "the number of stripes");
        if (stripes < 1 || stripes > TargetArgs.UINT_MAX) {
            throw a.invalid(0, "the number of stripes, from 1 to " + TargetArgs.UINT_MAX + " (stripe_ctr: Invalid stripe count)");
        }
        long chunk = a.number(1, "the chunk size in sectors");
        if (chunk < 1 || chunk > TargetArgs.UINT_MAX) {
            throw a.invalid(1, "the chunk size in sectors, from 1 to " + TargetArgs.UINT_MAX + " (stripe_ctr: Invalid chunk_size)");
        }
        if (a.length().count() % stripes != 0) {
            throw a.notValid("striped target: length (" + a.length().count()
                    + " sectors) is not divisible by the number of stripes (" + stripes + ")");
        }
        long width = a.length().count() / stripes;
        if (width % chunk != 0) {
            throw a.notValid("striped target: stripe width (" + width
                    + " sectors) is not divisible by the chunk size (" + chunk + " sectors)");
        }
        a.arity(a.count() == 2 + 2 * stripes, usage);
        if (chunk < 8) {
            throw a.at(1, "chunk size " + chunk + " sectors", "a chunk size of at least 8 sectors: stripe_ctr takes any from 1, but the "
                    + "model's striped target needs a whole page");
        }
        List<StripedTarget.Stripe> list = new ArrayList<>();
        for (int i = 0; i < stripes; i++) {
            String d = a.device(2 + 2 * i);
            long offset = a.number(3 + 2 * i, "the stripe's offset in sectors");
            a.endsInRange(offset, 3 + 2 * i);
            list.add(new StripedTarget.Stripe(d, Sectors.of(offset)));
        }
        return new StripedTarget(a.start(), a.length(), chunk, list);
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new StripedModel((StripedTarget) target);
    }
}
