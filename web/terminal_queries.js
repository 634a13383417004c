// Terminal queries are the server's business (docs/protocol.md, "Terminal queries"):
// its screen model answers each one exactly once, however many windows watch. This
// page's own emulator must therefore never answer, or a program would read a second
// (or fifth) reply as typed input. Each handler below claims a query sequence and does
// nothing, so xterm.js's built-in reply is never generated. Sequences that share a
// final byte with harmless ones (window ops, colour sets) only claim the query form.
//
// OSC 52 (clipboard) is ignored entirely for now: a later issue lets the focused window
// write the clipboard; reading it is never answered.

const swallow = () => true;

// CSI t window operations that produce a report (xterm's XTWINOPS numbering); the
// others (22/23 title stack, moves) keep xterm.js's own handling.
const WINDOW_REPORTS = new Set([11, 13, 14, 15, 16, 18, 19, 20, 21]);

export function silenceQueries(term) {
  const { parser } = term;
  const csi = [
    { final: 'c' },                                  // DA1   CSI c / CSI 0 c
    { prefix: '>', final: 'c' },                     // DA2   CSI > c
    { prefix: '=', final: 'c' },                     // DA3   CSI = c
    { final: 'n' },                                  // DSR   CSI 5 n, CSI 6 n (CPR)
    { prefix: '?', final: 'n' },                     // DSR   CSI ? 6 n (DECXCPR) and friends
    { intermediates: '$', final: 'p' },              // DECRQM (ANSI modes)   CSI Ps $ p
    { prefix: '?', intermediates: '$', final: 'p' }, // DECRQM (DEC modes)    CSI ? Ps $ p
    { prefix: '?', final: 'u' },                     // kitty keyboard flags query  CSI ? u
    { prefix: '>', final: 'q' },                     // XTVERSION  CSI > q
  ];
  for (const id of csi) parser.registerCsiHandler(id, swallow);
  parser.registerCsiHandler({ final: 't' }, (params) => WINDOW_REPORTS.has(first(params)));

  parser.registerDcsHandler({ intermediates: '$', final: 'q' }, swallow); // DECRQSS
  parser.registerDcsHandler({ intermediates: '+', final: 'q' }, swallow); // XTGETTCAP

  // Colour queries carry "?" where a colour would be: OSC 4;index;? and OSC 10/11/12;?.
  // A sequence that only sets colours goes on to xterm.js.
  for (const ident of [4, 10, 11, 12]) parser.registerOscHandler(ident, (data) => data.includes('?'));
  parser.registerOscHandler(52, swallow);
}

function first(params) {
  const value = params[0];
  return Array.isArray(value) ? value[0] : value;
}
