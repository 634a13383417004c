// The benches start `wharf serve` themselves (an optimised build, their own state dir and
// HOME) and read its address from the first line it prints: this waits for that line, and
// says why when the daemon exits first or prints nothing.
export function printedUrl(child, exited, stderrOf, timeoutMs = 15000) {
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`daemon printed no URL; stderr:\n${stderrOf()}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) { clearTimeout(timer); res(out.slice(0, nl).trim()); }
    });
    exited.then((e) => { clearTimeout(timer); rej(new Error(`daemon exited (${JSON.stringify(e)}); stderr:\n${stderrOf()}`)); });
  });
}
