/**
 * `verify` judges content, not the container (docs/product.md, Checking a corpus): it accepts an
 * export and its honest re-packaging (one top folder, `__MACOSX/`, `.DS_Store`), and refuses it with
 * one byte changed.
 */
import { writeFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { runCommand } from '../cli-in-process';
import type { CorpusReading } from '../corpus-reader';
import type { Violation } from '../rules';

export async function verifyJudgesContent(path: string, corpus: CorpusReading): Promise<Violation[]> {
  const violations: Violation[] = [];
  const verdict = async (file: string): Promise<number> => (await runCommand(['verify', file])).code;
  if ((await verdict(path)) !== 0) violations.push({ rule: 'verify: accepts the export', detail: path });
  const top = 'corpus';
  const repacked: Record<string, Uint8Array> = { [`${top}/`]: new Uint8Array(0) };
  for (const [name, bytes] of Object.entries(corpus.entries)) repacked[`${top}/${name}`] = bytes;
  repacked[`${top}/.DS_Store`] = strToU8('Bud1');
  repacked[`__MACOSX/${top}/._manifest.json`] = strToU8('Mac resource fork');
  const repackedPath = `${path}.repacked.zip`;
  writeFileSync(repackedPath, zipSync(repacked));
  if ((await verdict(repackedPath)) !== 0)
    violations.push({
      rule: 'verify: accepts an honest re-packaging (one top folder, __MACOSX/, .DS_Store)',
      detail: repackedPath,
    });
  const changed = { ...corpus.entries };
  const index = changed['index.csv']!.slice();
  index[index.length - 2] = index[index.length - 2]! ^ 0x01;
  changed['index.csv'] = index;
  const changedPath = `${path}.changed.zip`;
  writeFileSync(changedPath, zipSync(changed));
  if ((await verdict(changedPath)) !== 1)
    violations.push({ rule: 'verify: rejects a changed byte', detail: changedPath });
  return violations;
}
