// Where the quality figures of the fixed CI samples are recorded (see bench/quality.ts --record).
import { fileURLToPath } from 'node:url';

export const RECORD_FILE = fileURLToPath(new URL('../quality-sample.json', import.meta.url));
/** The same for trafilatura-eval's fixed sample (F1 from the corpus's snippet metric). */
export const TRAFILATURA_RECORD_FILE = fileURLToPath(new URL('../quality-sample-trafilatura.json', import.meta.url));

/** The same for articles-dev's fixed sample (mean token F1 on the main content, its own metric). */
export const ARTICLES_RECORD_FILE = fileURLToPath(new URL('../quality-sample-articles.json', import.meta.url));

export interface QualityRecord {
  sample: number;
  f1: number;
  command: string;
}
