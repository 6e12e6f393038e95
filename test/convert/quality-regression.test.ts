// Holds extraction quality to its recorded figures: websift's mean F1 on the fixed WCXB sample may
// not drop more than 0.01 below bench/quality-sample.json, nor its snippet F1 on the fixed
// trafilatura-eval sample more than 0.01 below bench/quality-sample-trafilatura.json. Needs
// ../shared/data/wcxb-dev and ../shared/data/trafilatura-eval beside the repository (or $WCXB_DIR,
// $TRAFILATURA_DIR); each is skipped, with a message, when its data is absent. The same for articles-dev
// (../shared/data/articles-dev or $ARTICLES_DIR): its mean token F1 on the main content of a fixed
// 150-page sample may not drop more than 0.01 below bench/quality-sample-articles.json.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { articlesAvailable, articlesDir } from '../../bench/lib/articles-data.js';
import { ARTICLES_SAMPLE_SIZE, aggregateArticles, runArticles } from '../../bench/lib/articles-run.js';
import { ARTICLES_RECORD_FILE, type QualityRecord, RECORD_FILE, TRAFILATURA_RECORD_FILE } from '../../bench/lib/quality-record.js';
import { aggregate, runQuality, SAMPLE_SIZE } from '../../bench/lib/quality-run.js';
import { trafilaturaAvailable, trafilaturaDir } from '../../bench/lib/trafilatura-data.js';
import { aggregateTrafilatura, runTrafilatura, TRAFILATURA_SAMPLE_SIZE } from '../../bench/lib/trafilatura-run.js';
import { wcxbAvailable, wcxbDir } from '../../bench/lib/wcxb-data.js';

const available = wcxbAvailable();
if (!available) console.warn(`quality regression test skipped: WCXB data not found at ${wcxbDir()} (set WCXB_DIR)`);
const trafilatura = trafilaturaAvailable();
if (!trafilatura)
  console.warn(`quality regression test skipped: trafilatura-eval data not found at ${trafilaturaDir()} (set TRAFILATURA_DIR)`);

const articles = articlesAvailable();
if (!articles) console.warn(`quality regression test skipped: articles-dev data not found at ${articlesDir()} (set ARTICLES_DIR)`);

describe('extraction quality regression (WCXB fixed sample)', () => {
  it.skipIf(!available)(
    `F1 on the ${SAMPLE_SIZE}-page sample stays within 0.01 of the recorded figure`,
    () => {
      const record = JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as QualityRecord;
      expect(record.sample).toBe(SAMPLE_SIZE);
      const results = runQuality({ limit: SAMPLE_SIZE, baseline: false });
      expect(results).toHaveLength(SAMPLE_SIZE);
      const { f1 } = aggregate(results);
      expect(f1).toBeGreaterThanOrEqual(record.f1 - 0.01);
    },
    120_000,
  );
});

describe('extraction quality regression (trafilatura-eval fixed sample)', () => {
  it.skipIf(!trafilatura)(
    `snippet F1 on the ${TRAFILATURA_SAMPLE_SIZE}-page sample stays within 0.01 of the recorded figure`,
    () => {
      const record = JSON.parse(readFileSync(TRAFILATURA_RECORD_FILE, 'utf8')) as QualityRecord;
      expect(record.sample).toBe(TRAFILATURA_SAMPLE_SIZE);
      const rows = runTrafilatura({ limit: TRAFILATURA_SAMPLE_SIZE, baseline: false });
      expect(rows).toHaveLength(TRAFILATURA_SAMPLE_SIZE);
      const { f1 } = aggregateTrafilatura(rows);
      expect(f1).toBeGreaterThanOrEqual(record.f1 - 0.01);
    },
    120_000,
  );
});

describe('extraction quality regression (articles-dev fixed sample)', () => {
  it.skipIf(!articles)(
    `token F1 on the ${ARTICLES_SAMPLE_SIZE}-page sample stays within 0.01 of the recorded figure`,
    () => {
      const record = JSON.parse(readFileSync(ARTICLES_RECORD_FILE, 'utf8')) as QualityRecord;
      expect(record.sample).toBe(ARTICLES_SAMPLE_SIZE);
      const rows = runArticles({ limit: ARTICLES_SAMPLE_SIZE, baseline: false });
      expect(rows).toHaveLength(ARTICLES_SAMPLE_SIZE);
      const { f1 } = aggregateArticles(rows);
      expect(f1).toBeGreaterThanOrEqual(record.f1 - 0.01);
    },
    180_000,
  );
});
