/** seek-bzip ships no types: the part of its API zip/other-methods.ts uses. */
declare module 'seek-bzip' {
  interface InputStream {
    readByte(): number;
    read(buffer: Uint8Array, offset: number, length: number): number;
    eof(): boolean;
  }
  interface OutputStream {
    writeByte(byte: number): void;
  }
  const Bunzip: {
    /** Decodes a whole bzip2 stream from `input` into `output`, synchronously; throws on bad data. */
    decode(input: InputStream, output: OutputStream, multistream?: boolean): void;
  };
  export default Bunzip;
}
