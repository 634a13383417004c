// Shrinks a failing random mix of tests/unit/xterm/engine_agreement.test.mjs to a short
// stream that still shows a difference, and prints it (as a JSON string) with the
// differences it shows. Delta debugging over the stream's pieces, then over the
// characters of each piece.
//
//   WHARF_SCREEN_DUMP=build/tests/wharf_screen_dump NODE_PATH=node_modules \
//     node tests/tools/engine_minimize.mjs SEED [REGEX]
//
// REGEX picks the differences to keep (default: any), matched against lines that start
// with D (engine vs xterm.js fed the stream), S (engine vs xterm.js fed the snapshot),
// X (scrollback: xterm.js fed the stream vs fed the snapshot), R (engine vs the engine fed
// the snapshot) or A (xterm.js fed the stream vs fed the snapshot, after more output).
// EXCLUDE=REGEX drops the pieces that match it first (to look past a known difference).
import {
  AFTER, compareScrollback, compareStates, compareXterms, dumpEngine, randomStream, xtermTerminal,
} from '../support/engine_agreement.mjs';

const seed = Number(process.argv[2]);
if (!Number.isInteger(seed)) {
  console.error('usage: engine_minimize.mjs SEED [REGEX]');
  process.exit(2);
}
const wanted = new RegExp(process.argv[3] ?? '.');
const stream = randomStream(seed);
const { cols, rows, chunk } = stream;

async function differences(pieces) {
  const bytes = Buffer.from(pieces.join(''), 'utf8');
  const resizes = stream.resizes.map((r) => ({ ...r, at: r.at === undefined ? undefined : Math.min(r.at, bytes.length) }));
  const size = resizes.length ? resizes[resizes.length - 1] : { cols, rows };
  const engine = dumpEngine(bytes, { cols, rows, chunk, resizes, snapshot: true });
  let direct;
  try {
    direct = await xtermTerminal(bytes, { cols, rows, chunk, resizes });
  } catch {
    return [];  // xterm.js threw: not the difference looked for
  }
  const page = await xtermTerminal(engine.snapshot, size);
  const out = [
    ...compareStates(engine, direct.state(), { scrollbackLimit: 2000 }).map((d) => `D ${d}`),
    ...compareStates(engine, page.state(), { snapshot: true, scrollbackLimit: 2000 }).map((d) => `S ${d}`),
    ...compareScrollback(direct.state(), page.state()).map((d) => `X ${d}`),
    ...compareStates(engine, engine.replica, { snapshot: true }).map((d) => `R ${d}`),
  ];
  await new Promise((resolve) => direct.term.write(AFTER, resolve));
  await new Promise((resolve) => page.term.write(AFTER, resolve));
  out.push(...compareXterms(direct.state(), page.state()).map((d) => `A ${d}`));
  direct.term.dispose();
  page.term.dispose();
  return out;
}

const shows = async (pieces) => (await differences(pieces)).some((line) => wanted.test(line));

let pieces = stream.pieces;
if (process.env.EXCLUDE) {
  const exclude = new RegExp(process.env.EXCLUDE, 'u');
  pieces = pieces.filter((p) => !exclude.test(p));
}
if (!(await shows(pieces))) {
  console.log(`seed ${seed}: no such difference`);
  process.exit(0);
}
let parts = 2;
while (pieces.length >= 2) {
  const size = Math.ceil(pieces.length / parts);
  let reduced = false;
  for (let i = 0; i < pieces.length; i += size) {
    const candidate = [...pieces.slice(0, i), ...pieces.slice(i + size)];
    if (await shows(candidate)) {
      pieces = candidate;
      parts = Math.max(parts - 1, 2);
      reduced = true;
      break;
    }
  }
  if (!reduced) {
    if (parts >= pieces.length) break;
    parts = Math.min(parts * 2, pieces.length);
  }
}
for (let i = 0; i < pieces.length; i++) {
  let chars = [...pieces[i]];
  for (let j = 0; j < chars.length;) {
    const shorter = [...chars.slice(0, j), ...chars.slice(j + 1)];
    const candidate = [...pieces.slice(0, i), shorter.join(''), ...pieces.slice(i + 1)];
    if (await shows(candidate)) {
      chars = shorter;
      pieces = candidate;
    } else {
      j++;
    }
  }
}
pieces = pieces.filter((p) => p !== '');
const resized = stream.resizes.length ? ` resized ${JSON.stringify(stream.resizes)}` : '';
console.log(`seed ${seed}: ${cols}x${rows}${chunk ? `, fed ${chunk} bytes at a time` : ''}${resized}`);
console.log(JSON.stringify(pieces.join('')));
for (const line of (await differences(pieces)).slice(0, 20)) console.log(`  ${line}`);
process.exit(0);
