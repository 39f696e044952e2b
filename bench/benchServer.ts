// The benchmarks' API child processes: a bench script re-run with `--serve ...` in its own process
// (so the load generator does not share the API's event loop, and its RSS is the API's alone),
// ready when it prints `READY <port>`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface BenchServer {
  port: number;
  child: ChildProcess;
}

/** Starts `script` under tsx with `nodeArgs` and `args`; resolves with its port once it says READY. */
export async function spawnBenchServer(script: string, args: string[], nodeArgs: string[] = []): Promise<BenchServer> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /^READY (\d+)$/.exec(line);
      // Anything else the child prints (say --trace-gc lines from BENCH_SERVER_NODE_ARGS) is passed on.
      if (m) resolve(Number(m[1]));
      else process.stderr.write(`${line}\n`);
    });
  });
  return { port, child };
}

/** Node flags for a bench server from BENCH_SERVER_NODE_ARGS (space-separated), else `fallback`. */
export function benchServerNodeArgs(fallback = ''): string[] {
  return (process.env.BENCH_SERVER_NODE_ARGS ?? fallback).split(' ').filter(Boolean);
}
