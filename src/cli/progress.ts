// A progress bar on stderr for long runs; on a non-terminal it stays quiet until the summary.

export interface Progress {
  tick(label?: string): void;
  done(summary: string): void;
}

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let count = 0;
  const live = Boolean(stream.isTTY) && total > 1;
  const width = 30;
  return {
    tick(label = '') {
      count = Math.min(total, count + 1);
      if (!live) return;
      const filled = Math.round((count / total) * width);
      const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
      stream.write(`\r[${bar}] ${count}/${total} ${label.slice(0, 40).padEnd(40)}`);
    },
    done(summary) {
      if (live) stream.write('\r\x1b[K');
      stream.write(`${summary}\n`);
    },
  };
}
