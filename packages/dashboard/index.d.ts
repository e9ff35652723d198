/** Absolute path of the built dashboard (`index.html`, `assets/*`), with a trailing separator. */
export declare const distDir: string;
