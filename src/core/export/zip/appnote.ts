/**
 * The numbers of the ZIP format (PKWARE APPNOTE 6.3.x) that writing and reading a ZIP share, named
 * once: the signatures that open its records, the flags and method read and written, and the largest
 * values of its 16- and 32-bit fields (beyond them, ZIP64 records hold the value).
 */

export const LOCAL_HEADER = 0x04034b50;
/** A local header's fixed part; the name and extra fields follow it. */
export const LOCAL_HEADER_BYTES = 30;
export const DATA_DESCRIPTOR = 0x08074b50;
export const CENTRAL_HEADER = 0x02014b50;
/** A central directory header's fixed part; the name, extra fields and comment follow it. */
export const CENTRAL_HEADER_BYTES = 46;
export const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** The end record's fixed part; the ZIP's comment follows it. */
export const END_RECORD_BYTES = 22;
export const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
export const ZIP64_END_LOCATOR = 0x07064b50;
export const ZIP64_EXTRA_FIELD = 0x0001;

export const FLAG_ENCRYPTED = 0x0001;
/** Bit 3: sizes and CRC are in the data descriptor. */
export const FLAG_DATA_DESCRIPTOR = 0x0008;
export const METHOD_DEFLATE = 8;

export const UINT16_MAX = 0xffff;
export const UINT32_MAX = 0xffffffff;
