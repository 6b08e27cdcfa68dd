// Entry point: reads the configuration, then runs one server process (WORKERS=1) or a cluster of
// workers (WORKERS, one per core by default): this file runs as the cluster's primary and as each
// of its workers (cluster.ts).
import cluster from 'node:cluster';
import { runPrimary, runSingle, runWorker } from './cluster';
import { loadConfig } from './config';

// The app's server render (http/pages.ts) loads React's production build unless told otherwise:
// its development build checks more and renders a page about three times slower.
process.env.NODE_ENV ??= 'production';

const config = loadConfig();
if (cluster.isWorker) await runWorker(config);
else if (config.workers > 1) await runPrimary(config);
else await runSingle(config);
