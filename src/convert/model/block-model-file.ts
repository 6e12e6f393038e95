// The shipped classifier's weights are data, not code: block-model.json beside this module (copied to
// dist/ by the build), written by `npx tsx tools/train/train-blocks.ts --write` and read on the first
// conversion, so importing websift costs nothing until a page is converted. A short header says which
// model it is and which feature lists it was trained on.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CONTEXT_FEATURES } from './block-context.js';
import { FEATURES, type Lexicon } from './block-features.js';
import type { GbdtModel } from './gbdt.js';

export const MODEL_FORMAT = 'websift-block-model/1';

/**
 * A block's probability of being content: sigmoid(scale · score + shift), fitted out of fold. On a
 * page that offers a product for sale (BlockRows.offersProduct), productShift is added to shift:
 * trained with article pages too, the model overrates a shop's offer, review and marketing blocks,
 * and a shift fitted on those pages alone drops them without retraining (absent: 0).
 */
export interface Calibration {
  scale: number;
  shift: number;
  productShift?: number;
}

export interface ModelFile {
  format: typeof MODEL_FORMAT;
  /** Counts retrainings; bumped by every --write. */
  version: number;
  /** ISO date of the training run. */
  trained: string;
  /** The command that wrote this file, with its options. */
  command: string;
  /** featureHash() of the code the stages were trained for. */
  featureHash: string;
  calibration: Calibration;
  lexicon: Lexicon;
  stageOne: GbdtModel | null;
  stageTwo: GbdtModel | null;
}

/** Names the two stages' feature lists: a model trained on other lists is not used. */
export function featureHash(): string {
  return createHash('sha256')
    .update(`${FEATURES.join(',')}|${CONTEXT_FEATURES.join(',')}`)
    .digest('hex')
    .slice(0, 16);
}

export const modelFileUrl = (): URL => new URL('./block-model.json', import.meta.url);

export function readModelFile(url: URL = modelFileUrl()): ModelFile {
  const file = JSON.parse(readFileSync(url, 'utf8')) as ModelFile;
  if (file.format !== MODEL_FORMAT) throw new Error(`${url.pathname}: not a ${MODEL_FORMAT} file`);
  return file;
}

/** The file's text: header fields first, one per line; each large part on a line of its own. */
export function formatModelFile(file: ModelFile): string {
  const lines = Object.entries(file).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}
