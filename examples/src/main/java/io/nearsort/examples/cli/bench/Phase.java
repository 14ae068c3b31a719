package io.nearsort.examples.cli.bench;

/** The timed phases of a bench run, in the order they run. */
public enum Phase {
    /** Every key of the workload written in arrival order (SWARE §V's ingestion workload). */
    INGEST("ingest", "keys"),
    /** Uniform random non-empty point lookups on the loaded structure. */
    LOOKUP("lookup", "lookups"),
    /** The last 20% of the writes interleaved with reads on a structure preloaded with the first 80% (SWARE §V-B). */
    MIX("mix", "ops"),
    /** Range scans over a fixed number of consecutive keys. */
    SCAN("scan", "scans");

    private final String label;
    private final String unit;

    Phase(final String label, final String unit) {
        this.label = label;
        this.unit = unit;
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }
}
