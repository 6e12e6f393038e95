// A prom-client Histogram with one label whose observations are counted in plain cells (a count per
// bucket, found by the label value in a Map) and turned into prom-client's series when the registry is
// read: prom-client's `observe`, even on a bound child, checks and hashes the labels on every call
// (~330 ns), once per request on the hot path (docs/benchmarks.md, "Observability"). What a scrape
// answers is what prom-client's own Histogram would answer for the same observations
// (test/observe/cell-histogram.test.ts).

import { Histogram, type LabelValues, type MetricObjectWithValues, type MetricValueWithName } from 'prom-client';

interface Cell {
  /** Observations per bucket (not cumulative), the last one above every bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

type Series = MetricValueWithName<string> & { sharedLabels?: LabelValues<string>; exemplar?: null };
interface Exported<V> {
  name: string;
  help: string;
  type: 'histogram';
  values: V[];
  aggregator: 'sum';
}

export class CellHistogram extends Histogram<string> {
  readonly #name: string;
  readonly #help: string;
  readonly #label: string;
  readonly #bounds: number[];
  readonly #cells = new Map<string, Cell>();

  constructor(config: { name: string; help: string; labelName: string; buckets: number[]; registers: import('prom-client').Registry[] }) {
    super({ name: config.name, help: config.help, labelNames: [config.labelName], buckets: config.buckets, registers: config.registers });
    this.#name = config.name;
    this.#help = config.help;
    this.#label = config.labelName;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
  }

  /** The last label value recorded and its cell: a server's requests mostly repeat the previous one's endpoint (no Map look-up). */
  #lastLabel: string | undefined = undefined;
  #lastCell: Cell | undefined = undefined;

  /** Counts one observation of `value` for the label value `labelValue` (the hot path). */
  record(labelValue: string, value: number): void {
    let cell = labelValue === this.#lastLabel ? this.#lastCell : this.#cells.get(labelValue);
    if (cell === undefined) {
      cell = { counts: new Array<number>(this.#bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.#cells.set(labelValue, cell);
    }
    this.#lastLabel = labelValue;
    this.#lastCell = cell;
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    cell.counts[i]!++;
    cell.sum += value;
    cell.count++;
  }

  /** The series as prom-client's Histogram lists them for the text format (labels shared, `le` apart). */
  async getForPromString(): Promise<Exported<Series>> {
    const values: Series[] = [];
    for (const [labelValue, cell] of this.#cells) {
      const labels = { [this.#label]: labelValue };
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        cumulative += cell.counts[i]!;
        values.push({
          labels: { le: this.#bounds[i]! },
          sharedLabels: labels,
          value: cumulative,
          metricName: `${this.#name}_bucket`,
          exemplar: null,
        });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: cell.count, metricName: `${this.#name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: labels, value: cell.sum, metricName: `${this.#name}_sum` },
        { labels: {}, sharedLabels: labels, value: cell.count, metricName: `${this.#name}_count` },
      );
    }
    return { name: this.#name, help: this.#help, type: 'histogram', values, aggregator: 'sum' };
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const data = await this.getForPromString();
    const values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    // prom-client's declared type (an enum `type`, a `collect`) is not what its own Histogram returns.
    return { ...data, values } as unknown as MetricObjectWithValues<MetricValueWithName<string>>;
  }

  override reset(): void {
    // prom-client's constructor calls reset() before this class's fields exist.
    if (!(#cells in this)) return;
    this.#cells.clear();
    this.#lastLabel = undefined;
    this.#lastCell = undefined;
  }
}
