// A latency probe in a process of its own: CLIENTS clients request PATHS (comma-separated, in turn)
// from BASE_URL with API_KEY, each one request after another. Its own process, so what it measures is
// the server's answer time and not the event loop of a test that downloads other answers meanwhile.
// Protocol on stdin/stdout: prints "ready" after one warm-up request per client; "start" begins a
// window, "stop" ends it and prints one JSON line {latencies (ms), statuses}; "exit" ends the process.
import { createInterface } from 'node:readline';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const baseUrl = env('BASE_URL');
const paths = env('PATHS').split(',');
const headers = { 'x-api-key': env('API_KEY') };
const clients = Number(process.env.CLIENTS ?? 2);

async function request(i: number): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${paths[i % paths.length]}`, { headers });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** Runs the clients until `going()` is false. */
async function window(going: () => boolean): Promise<{ latencies: number[]; statuses: Record<string, number> }> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    for (let i = client; going(); i += clients) {
      const { ms, status } = await request(i);
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }));
  return { latencies, statuses };
}

await Promise.all(Array.from({ length: clients }, (_, client) => request(client)));
process.stdout.write('ready\n');

let running: { stop: () => void; done: Promise<void> } | null = null;
createInterface({ input: process.stdin }).on('line', (line) => {
  const command = line.trim();
  if (command === 'start' && !running) {
    let going = true;
    const done = window(() => going).then((result) => void process.stdout.write(`${JSON.stringify(result)}\n`));
    running = { stop: () => void (going = false), done };
  } else if (command === 'stop' && running) {
    running.stop();
    running = null;
  } else if (command === 'exit') {
    process.exit(0);
  }
});
