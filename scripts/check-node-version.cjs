// The preflight of every npm command a newcomer types first (npm install, npm start, npm test,
// npm run serve, npm run cdms): it says which Node.js CDMS needs and how to get it, before an older
// Node fails somewhere deeper with an error that names neither (Node 20 ends `npm start` with
// ERR_UNKNOWN_FILE_EXTENSION ".ts": the server is TypeScript that Node runs itself from 22.18 on).
//
// Plain CommonJS in the oldest JavaScript on purpose (var, no arrow functions, no optional
// chaining): it must run, and print its message, on whatever Node the machine happens to have.
// The version it asks for is package.json's "engines", the one place that names it.

var fs = require('fs');
var path = require('path');

var packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
var wanted = String(packageJson.engines.node).replace(/^>=\s*/, '');

function parts(version) {
  return version.split('.').map((part) => parseInt(part, 10) || 0);
}

function atLeast(have, need) {
  var i;
  for (i = 0; i < 3; i++) {
    if ((have[i] || 0) !== (need[i] || 0)) return (have[i] || 0) > (need[i] || 0);
  }
  return true;
}

/** What to tell a user of Node `have` when CDMS needs `need` (both "major.minor.patch"). */
function refusal(have, need) {
  var major = parts(need)[0];
  return [
    '',
    'CDMS needs Node.js ' + need + ' or newer; this is Node.js ' + have + '.',
    'CDMS는 Node.js ' + need + ' 이상이 필요합니다. 지금 Node.js는 ' + have + '입니다.',
    '',
    'The server is TypeScript that Node runs itself, which Node ' + major + ' does from ' + need + ' on.',
    'Get it with one of:',
    '  nvm install && nvm use          (nvm reads .nvmrc: ' + major + ')',
    '  fnm use --install-if-missing    (fnm reads .node-version)',
    '  https://nodejs.org/en/download  (the ' + major + ' LTS installer)',
    'Then run the same command again.',
    '',
  ].join('\n');
}

module.exports = { atLeast: atLeast, parts: parts, refusal: refusal, wanted: wanted };

if (require.main === module && !atLeast(parts(process.versions.node), parts(wanted))) {
  process.stderr.write(refusal(process.versions.node, wanted));
  process.exit(1);
}
