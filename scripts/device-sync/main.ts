// `npm run device:sync -- --server URL --enrol CODE`: the reference sync app of a laser device (issue 29;
// README, "The reference sync app"; docs/deployment.md, "Connecting the lasers"). With a code it enrols the
// device and saves the credential in its state folder; later runs use the saved credential.
import { parseArgs } from 'node:util';
import { DeviceApi, DeviceApiError } from './client';
import { mkdir } from 'node:fs/promises';
import { TransferLedger } from './laser-outbox';
import { UploadLedger } from './outbox-ledger';
import { loadCredential, saveCredential } from './state';
import { SyncApp, type SyncEvent, withRetries } from './sync-app';

export const SYNC_APP_VERSION = '1.0.0';

const USAGE = `Usage: npm run device:sync -- [--server URL] [--enrol CODE] [--state DIR] [--watch DIR] [--outbox DIR [--simulate-treatment]]

  --server URL   the product's address (e.g. https://macula.clinic.example); taken from the saved credential when left out
  --enrol CODE   the enrolment code the IT admin was shown (Administration → Devices); needed once
  --state DIR    where the credential and the record of uploaded files are kept (default .device-sync)
  --watch DIR    the folder the laser exports its exams to: each .npt file that appears is uploaded once
  --outbox DIR   the folder the laser imports parameter sets from: each signed plan for this laser is fetched there and confirmed
  --simulate-treatment   stand in for the laser: report each received plan as treated (every spot at its planned power)

Exit codes: 0 stopped (Ctrl-C, SIGTERM), 2 wrong arguments, 3 the server refused the code or the credential.`;

function say(line: string) {
  console.log(`${new Date().toISOString()} ${line}`);
}

function describe(event: SyncEvent): string {
  switch (event.kind) {
    case 'online':
      return `online: ${event.deviceId}, heartbeat every ${event.heartbeatSeconds} s`;
    case 'retrying':
      return `cannot reach the server (${event.reason}); try ${event.failures + 1} in ${(event.inMs / 1000).toFixed(1)} s`;
    case 'refused':
      return `refused: ${event.reason}`;
    case 'uploaded':
      return `uploaded ${event.file}: session ${event.treatmentId}${event.before ? ' (the server had it already)' : ''}`;
    case 'upload-refused':
      return `the server refused ${event.file} (not sent again): ${event.reason}`;
    case 'received':
      return `parameter set ${event.file} received (transfer ${event.transferId})`;
    case 'withdrawn':
      return `transfer ${event.transferId} was withdrawn${event.file ? `: ${event.file} removed from the laser's folder` : ''}`;
    case 'reported':
      return `reported transfer ${event.transferId} ${event.outcome}${event.outcome === 'treated' ? ` (${event.spots} spots)` : ''}`;
  }
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: { server: { type: 'string' }, enrol: { type: 'string' }, state: { type: 'string', default: '.device-sync' }, watch: { type: 'string' },
        outbox: { type: 'string' },
        'simulate-treatment': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const stateDir = args.state!;
  const log = (event: SyncEvent) => say(describe(event));
  const options = { version: SYNC_APP_VERSION, log };
  const stopper = { stopped: false, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

  let saved = await loadCredential(stateDir);
  const server = args.server ?? saved?.server;
  if (!server || !/^https?:\/\//.test(server)) {
    console.error(`${server ? `not an http(s) address: ${server}` : 'no server: name it with --server'}\n\n${USAGE}`);
    return 2;
  }
  const api = new DeviceApi({ server });
  if (args.enrol) {
    try {
      const enrolled = await withRetries(() => api.enrol(args.enrol!, SYNC_APP_VERSION), stopper, options);
      if (!enrolled) return 0;
      saved = { server, credential: enrolled.data.credential, id: enrolled.data.id, deviceId: enrolled.data.deviceId };
      await saveCredential(stateDir, saved);
      say(`enrolled as ${saved.deviceId}; credential saved in ${stateDir}`);
    } catch (error) {
      if (!(error instanceof DeviceApiError)) throw error;
      say(`enrolment refused: ${error.message}`);
      return 3;
    }
  }
  if (!saved) {
    console.error(`no saved credential in ${stateDir}: enrol with --enrol CODE\n\n${USAGE}`);
    return 2;
  }

  const watch = args.watch ? { dir: args.watch, ledger: await UploadLedger.open(stateDir) } : undefined;
  if (args['simulate-treatment'] && !args.outbox) {
    console.error(`--simulate-treatment needs --outbox\n\n${USAGE}`);
    return 2;
  }
  const outbox = args.outbox
    ? { dir: args.outbox, ledger: await TransferLedger.open(stateDir), simulateTreatment: Boolean(args['simulate-treatment']) }
    : undefined;
  if (outbox) await mkdir(outbox.dir, { recursive: true });
  const app = new SyncApp(api.withCredential(saved.credential), { ...options, watch, outbox });
  const stop = () => {
    say('stopping');
    app.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return (await app.run()) === 'refused' ? 3 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
