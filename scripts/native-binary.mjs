// What a compiled native addon was built for, read from its own header: the binary format (ELF on
// Linux, Mach-O on macOS, PE on Windows), the CPU architecture it runs on, and the Node module
// version (ABI) it registers. scripts/check-packaged-addons.mjs compares these with the package.

/** ELF e_machine values (System V ABI, and the processor supplements). */
const ELF_MACHINES = { 3: 'ia32', 40: 'armv7l', 62: 'x64', 183: 'arm64' };
/** Mach-O cputype values (<mach/machine.h>: CPU_TYPE_X86_64, CPU_TYPE_ARM64, and their 32-bit kin). */
const MACHO_CPU_TYPES = { 0x7: 'ia32', 0xc: 'armv7l', 0x01000007: 'x64', 0x0100000c: 'arm64' };
/** PE/COFF Machine values (Microsoft's PE format: IMAGE_FILE_MACHINE_*). */
const PE_MACHINES = { 0x14c: 'ia32', 0x1c4: 'armv7l', 0x8664: 'x64', 0xaa64: 'arm64' };

/** The binary format each platform loads its addons in. */
export const FORMAT_OF_PLATFORM = { linux: 'ELF', darwin: 'Mach-O', win32: 'PE' };

const named = (table, value) => table[value] ?? `an unknown architecture (${value})`;

function readElf(bytes) {
  if (bytes.length < 20) return undefined;
  const littleEndian = bytes[5] === 1;
  const machine = littleEndian ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
  return { format: 'ELF', architectures: [named(ELF_MACHINES, machine)] };
}

function readMachO(bytes) {
  if (bytes.length < 8) return undefined;
  return { format: 'Mach-O', architectures: [named(MACHO_CPU_TYPES, bytes.readInt32LE(4))] };
}

/** A universal ("fat") Mach-O: a big-endian table of the architectures it carries, 20 bytes each. */
function readFatMachO(bytes) {
  if (bytes.length < 8) return undefined;
  const count = bytes.readUInt32BE(4);
  const architectures = [];
  for (let entry = 0; entry < count && 8 + entry * 20 + 4 <= bytes.length; entry++) {
    architectures.push(named(MACHO_CPU_TYPES, bytes.readInt32BE(8 + entry * 20)));
  }
  return { format: 'Mach-O', architectures };
}

function readPe(bytes) {
  if (bytes.length < 0x40) return undefined;
  const header = bytes.readUInt32LE(0x3c);
  if (header + 6 > bytes.length || bytes.toString('latin1', header, header + 4) !== 'PE\0\0')
    return undefined;
  return { format: 'PE', architectures: [named(PE_MACHINES, bytes.readUInt16LE(header + 4))] };
}

/**
 * The format and architectures of a native binary's bytes, or undefined when they are none of the
 * three formats (a text file, a truncated download...).
 */
export function binaryTarget(bytes) {
  const magic = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0;
  if (magic === 0x7f454c46) return readElf(bytes);
  if (magic === 0xcffaedfe || magic === 0xcefaedfe) return readMachO(bytes);
  if (magic === 0xcafebabe) return readFatMachO(bytes);
  if (bytes.length >= 2 && bytes.toString('latin1', 0, 2) === 'MZ') return readPe(bytes);
  return undefined;
}

/**
 * The NODE_MODULE_VERSION a native addon registers: the N of the node_register_module_vN function
 * it exports, whose name every binary format keeps as a NUL-ended string. Undefined when it names
 * none, as a Node-API addon, which loads in any runtime; NaN when it names several.
 */
export function registeredModuleVersion(bytes) {
  const names = bytes.toString('latin1');
  const versions = new Set([...names.matchAll(/node_register_module_v(\d+)\0/g)].map((match) => match[1]));
  if (versions.size === 0) return undefined;
  return versions.size === 1 ? Number([...versions][0]) : NaN;
}
