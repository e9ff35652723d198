/** Builds dist/ unless it was built from the current sources; true when it built. */
export declare function buildIfStale(options?: { quiet?: boolean }): Promise<boolean>;
