// Jest global setup of the projects that serve the app: builds web/dist when it is missing or
// older than its sources (a fresh clone after `npm ci`), so the service has an app to serve.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = () => {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-if-stale.js'), 'web'], {
    stdio: 'inherit',
  });
};
