// The rollback history limits, in one place (spec/hashline.md, "Rollback history data model").

/** Paths kept, least recently used dropped first. */
export const MAX_PATHS = 50;
/** Versions kept per path, oldest dropped first. */
export const MAX_VERSIONS_PER_PATH = 10;
/** Larger texts are not recorded (record returns null). */
export const MAX_SNAPSHOT_BYTES = 512 * 1024;
