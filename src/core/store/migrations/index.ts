import { initialSchema } from './001-initial';
import { jobLease } from './002-job-lease';
import { trustSchema } from './003-trust';
import { researchSchema } from './004-research';
import { citableCorporaSchema } from './005-citable-corpora';
import { keepCurrentSchema } from './006-keep-current';
import { librarySchema } from './007-library';
import { segmentIndexSchema } from './008-segment-index';
import { exportedTextIndexSchema } from './009-exported-text-index';
import { listReadsSchema } from './010-list-reads';
import { exportVersionsSchema } from './011-export-versions';
import { regenerableVersionsSchema } from './012-regenerable-versions';
import { compatibilityIndexSchema } from './013-compatibility-search-index';
import { exactDatesSchema } from './014-exact-dates';
import { captionTimesSchema } from './015-caption-times';

/**
 * Every schema change, in order: MIGRATIONS[n - 1] takes a database from user_version n - 1 to n.
 * Append only; never edit a migration that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  initialSchema,
  jobLease,
  trustSchema,
  researchSchema,
  citableCorporaSchema,
  keepCurrentSchema,
  librarySchema,
  segmentIndexSchema,
  exportedTextIndexSchema,
  listReadsSchema,
  exportVersionsSchema,
  regenerableVersionsSchema,
  compatibilityIndexSchema,
  exactDatesSchema,
  captionTimesSchema,
];
