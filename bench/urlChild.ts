// A child process that prints its URL on a line of its own once it listens (the fake upstreams' CLIs):
// the benchmarks run the fake register in a process of its own, as it is another machine in production.
import { spawn, type ChildProcess } from 'node:child_process';

/** Spawns `node <args>` and resolves with the first `http://...` line it prints, and the process. */
export async function startUrlChild(args: string[], what: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
  return { url, child };
}
