// Where the quality figure of the fixed CI sample is recorded (see bench/quality.ts --record).
import { fileURLToPath } from 'node:url';

export const RECORD_FILE = fileURLToPath(new URL('../quality-sample.json', import.meta.url));

export interface QualityRecord {
  sample: number;
  f1: number;
  command: string;
}
