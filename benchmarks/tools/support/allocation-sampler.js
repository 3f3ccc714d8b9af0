// Preloaded into a server by allocation-sites.js (node -r): the first SIGUSR2 starts V8's sampling heap profiler,
// counting the objects a scavenge or a full collection took as well (what a request allocates and drops is what
// makes the scavenges), the second stops it and writes each allocating function's bytes to ALLOCATION_SITES_OUT.
const fs = require('node:fs');
const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 128,
        includeObjectsCollectedByMinorGC: true,
        includeObjectsCollectedByMajorGC: true,
      }),
    );
    return;
  }
  session.post('HeapProfiler.stopSampling', (error, result) => {
    const sites = new Map();
    const walk = (node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^.*\/(framework|benchmarks|node_modules|reference-apps)\//, '$1/');
      const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child);
    };
    if (!error) walk(result.profile.head);
    fs.writeFileSync(process.env.ALLOCATION_SITES_OUT, JSON.stringify(error ? { error: String(error) } : [...sites]));
  });
});
