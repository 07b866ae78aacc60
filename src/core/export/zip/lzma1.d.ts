/**
 * The part of lzma1's API zip/other-methods.ts uses. lzma1 names its TypeScript sources as its types,
 * which this project's stricter settings would check as its own code, so tsconfig.node.json's `paths`
 * sends the compiler here instead.
 */
/** Decodes a ".lzma" stream (properties, size unpacked, data) whole; throws on data it cannot decode. */
export declare function decompress(data: Uint8Array | ArrayBuffer): Uint8Array;
