import { spdxPage } from '../../../shared/citation';

/**
 * The license ids the Hugging Face Hub knows for a card's `license`, as data. Copied from the Hub's
 * documentation page "Licenses" (https://huggingface.co/docs/hub/repositories-licenses), the table
 * "License identifier (to use in repo card)" of docs/hub/repositories-licenses.md in
 * github.com/huggingface/hub-docs at commit fd6cf1f (2026-06-06). When the Hub adds one, add it here.
 */
export const HUB_LICENSE_IDS: readonly string[] = [
  'apache-2.0',
  'mit',
  'openrail',
  'bigscience-openrail-m',
  'creativeml-openrail-m',
  'bigscience-bloom-rail-1.0',
  'bigcode-openrail-m',
  'afl-3.0',
  'artistic-2.0',
  'bsl-1.0',
  'bsd',
  'bsd-2-clause',
  'bsd-3-clause',
  'bsd-3-clause-clear',
  'c-uda',
  'cc',
  'cc0-1.0',
  'cc-by-2.0',
  'cc-by-2.5',
  'cc-by-3.0',
  'cc-by-4.0',
  'cc-by-sa-3.0',
  'cc-by-sa-4.0',
  'cc-by-nc-2.0',
  'cc-by-nc-3.0',
  'cc-by-nc-4.0',
  'cc-by-nd-4.0',
  'cc-by-nc-nd-3.0',
  'cc-by-nc-nd-4.0',
  'cc-by-nc-sa-2.0',
  'cc-by-nc-sa-3.0',
  'cc-by-nc-sa-4.0',
  'cdla-sharing-1.0',
  'cdla-permissive-1.0',
  'cdla-permissive-2.0',
  'wtfpl',
  'ecl-2.0',
  'epl-1.0',
  'epl-2.0',
  'etalab-2.0',
  'eupl-1.1',
  'eupl-1.2',
  'agpl-3.0',
  'gfdl',
  'gpl',
  'gpl-2.0',
  'gpl-3.0',
  'lgpl',
  'lgpl-2.1',
  'lgpl-3.0',
  'isc',
  'h-research',
  'intel-research',
  'lppl-1.3c',
  'ms-pl',
  'apple-ascl',
  'apple-amlr',
  'mpl-2.0',
  'odc-by',
  'odbl',
  'openmdw-1.0',
  'openmdw-1.1',
  'openrail++',
  'osl-3.0',
  'postgresql',
  'ofl-1.1',
  'ncsa',
  'unlicense',
  'zlib',
  'pddl',
  'lgpl-lr',
  'deepfloyd-if-license',
  'fair-noncommercial-research-license',
  'llama2',
  'llama3',
  'llama3.1',
  'llama3.2',
  'llama3.3',
  'llama4',
  'grok2-community',
  'gemma',
  'unknown',
  'other',
];

/**
 * SPDX ids whose license the Hub names otherwise: the Open Data Commons licenses by their family (each
 * has one version), and the GNU licenses by their version alone (the Hub does not tell "only" from
 * "or later"). Every other SPDX id the Hub knows is its own id in lower case.
 */
const HUB_NAMES: Readonly<Record<string, string>> = {
  'ODbL-1.0': 'odbl',
  'ODC-By-1.0': 'odc-by',
  'PDDL-1.0': 'pddl',
  'C-UDA-1.0': 'c-uda',
  LGPLLR: 'lgpl-lr',
  'GPL-2.0-only': 'gpl-2.0',
  'GPL-2.0-or-later': 'gpl-2.0',
  'GPL-3.0-only': 'gpl-3.0',
  'GPL-3.0-or-later': 'gpl-3.0',
  'LGPL-2.1-only': 'lgpl-2.1',
  'LGPL-2.1-or-later': 'lgpl-2.1',
  'LGPL-3.0-only': 'lgpl-3.0',
  'LGPL-3.0-or-later': 'lgpl-3.0',
  'AGPL-3.0-only': 'agpl-3.0',
  'AGPL-3.0-or-later': 'agpl-3.0',
};

const KNOWN = new Set(HUB_LICENSE_IDS);

/** A card's license: an id of the Hub's list, or `other` with the license's name and where to read it. */
export type CardLicense = { license: string } | { license: 'other'; name: string; link: string };

/**
 * The card's license for an SPDX id (undefined: none given, which the Hub calls `unknown`). An id the
 * Hub lacks is `other`, named by the SPDX id in lower case, linked to its page of the SPDX License List.
 */
export function cardLicense(spdx: string | undefined): CardLicense {
  if (spdx === undefined) return { license: 'unknown' };
  const hub = HUB_NAMES[spdx] ?? spdx.toLowerCase();
  if (KNOWN.has(hub) && hub !== 'other' && hub !== 'unknown') return { license: hub };
  return { license: 'other', name: spdx.toLowerCase(), link: spdxPage(spdx) };
}
