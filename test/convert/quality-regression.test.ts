// Holds extraction quality to its recorded figures: websift's mean F1 on the fixed WCXB sample may
// not drop more than 0.01 below bench/quality-sample.json, nor its snippet F1 on the fixed
// trafilatura-eval sample more than 0.01 below bench/quality-sample-trafilatura.json. Needs
// ../shared/data/wcxb-dev and ../shared/data/trafilatura-eval beside the repository (or $WCXB_DIR,
// $TRAFILATURA_DIR); each is skipped, with a message, when its data is absent.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECORD_FILE, TRAFILATURA_RECORD_FILE, type QualityRecord } from '../../bench/lib/quality-record.js';
import { aggregate, runQuality, SAMPLE_SIZE } from '../../bench/lib/quality-run.js';
import { trafilaturaAvailable, trafilaturaDir } from '../../bench/lib/trafilatura-data.js';
import { aggregateTrafilatura, runTrafilatura, TRAFILATURA_SAMPLE_SIZE } from '../../bench/lib/trafilatura-run.js';
import { wcxbAvailable, wcxbDir } from '../../bench/lib/wcxb-data.js';

const available = wcxbAvailable();
if (!available) console.warn(`quality regression test skipped: WCXB data not found at ${wcxbDir()} (set WCXB_DIR)`);
const trafilatura = trafilaturaAvailable();
if (!trafilatura) console.warn(`quality regression test skipped: trafilatura-eval data not found at ${trafilaturaDir()} (set TRAFILATURA_DIR)`);

describe('extraction quality regression (WCXB fixed sample)', () => {
  it.skipIf(!available)(`F1 on the ${SAMPLE_SIZE}-page sample stays within 0.01 of the recorded figure`, () => {
    const record = JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as QualityRecord;
    expect(record.sample).toBe(SAMPLE_SIZE);
    const results = runQuality({ limit: SAMPLE_SIZE, baseline: false });
    expect(results).toHaveLength(SAMPLE_SIZE);
    const { f1 } = aggregate(results);
    expect(f1).toBeGreaterThanOrEqual(record.f1 - 0.01);
  }, 120_000);
});

describe('extraction quality regression (trafilatura-eval fixed sample)', () => {
  it.skipIf(!trafilatura)(`snippet F1 on the ${TRAFILATURA_SAMPLE_SIZE}-page sample stays within 0.01 of the recorded figure`, () => {
    const record = JSON.parse(readFileSync(TRAFILATURA_RECORD_FILE, 'utf8')) as QualityRecord;
    expect(record.sample).toBe(TRAFILATURA_SAMPLE_SIZE);
    const rows = runTrafilatura({ limit: TRAFILATURA_SAMPLE_SIZE, baseline: false });
    expect(rows).toHaveLength(TRAFILATURA_SAMPLE_SIZE);
    const { f1 } = aggregateTrafilatura(rows);
    expect(f1).toBeGreaterThanOrEqual(record.f1 - 0.01);
  }, 120_000);
});
