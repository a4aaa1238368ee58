/**
 * Records re-sealed per database transaction when none is asked for. Its own module so the admin
 * CLI can name it in `--help` without loading the database code behind `vault reseal`.
 */
export const DEFAULT_RESEAL_BATCH = 100;
