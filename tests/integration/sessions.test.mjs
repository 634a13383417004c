// Many sessions in one daemon (issue 3): every window gets the list and every change to
// it; `new`, `rename`, `reorder` and `end` are registry operations broadcast to every
// window; ending the session a window is on lands it on the right neighbour, else the
// left; live sessions are capped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { userInfo } from 'node:os';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, sessionPrograms, killSession } from '../support/ws_client.mjs';

const SHELL = basename(userInfo().shell); // the account's login shell names the sessions

// Waits for a `sessions` message (from index `from`) whose list satisfies `pred`.
function waitForList(w, pred, { from = 0, what = 'a sessions list' } = {}) {
  return w.waitForMessage((m) => m.type === 'sessions' && pred(m.sessions), { from, what });
}

const ids = (list) => list.map((s) => s.id);
const names = (list) => list.map((s) => s.name);

// Sends `obj` from `w` and expects an error with `code`, and no list change for anyone.
async function refused(w, obj, code, watchers = []) {
  const marks = watchers.map((x) => x.messages.length);
  const err = await w.request(obj, (m) => m.type === 'error' || m.type === 'sessions', { what: `the error for ${JSON.stringify(obj)}` });
  assert.equal(err.type, 'error', `${JSON.stringify(obj)} was accepted: ${JSON.stringify(err)}`);
  assert.equal(err.code, code, `${JSON.stringify(obj)}: ${JSON.stringify(err)}`);
  for (const [i, x] of watchers.entries()) {
    await x.request({ type: 'ping' }, 'pong');
    assert.ok(!x.messages.slice(marks[i]).some((m) => m.type === 'sessions'), `window ${x.window} was sent a list after a refused ${obj.type}`);
  }
  return err;
}

describe('the sessions list', { concurrency: 4 }, () => {
  test('new, rename and reorder change the list for every window', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a, attached: one } = await attachedWindow(t, d);
    const b = await openWs(d); // a window attached to nothing still sees the list
    t.after(() => b.close());
    assert.deepEqual(names(b.lastSessions), [`${SHELL} 1`]);

    // `new`: a second session, its window attached to it as driver.
    let na = a.messages.length;
    let nb = b.messages.length;
    const two = await a.newSession();
    assert.equal(two.type, 'attached', JSON.stringify(two));
    t.after(() => killSession(two.pid));
    await a.waitForPrompt();
    assert.equal(two.driver, true);
    assert.notEqual(two.session, one.session);
    assert.notEqual(two.pid, one.pid);
    await waitFor(() => sessionPrograms(d).length === 2, { what: 'two shells' });
    for (const [w, n] of [[a, na], [b, nb]]) {
      const list = await waitForList(w, (l) => l.length === 2, { from: n });
      assert.deepEqual(ids(list.sessions), [one.session, two.session], 'tab order: creation order');
      assert.deepEqual(names(list.sessions), [`${SHELL} 1`, `${SHELL} 2`]);
      for (const s of list.sessions) {
        assert.equal(s.program, SHELL);
        assert.equal(s.status, 'running');
        assert.ok(Number.isInteger(s.created) && s.created > 0);
        assert.equal(typeof s.cwd, 'string');
      }
    }
    // The window moved: it watches nothing of session 1 any more.
    await waitForList(b, (l) => l.length === 2 && l[0].windows === 0 && l[1].windows === 1 && l[1].driver === a.window, { from: nb, what: 'the list with the window moved to session 2' });

    // rename: every window sees the new name; an empty name restores the default.
    for (const [name, expected] of [['build box', 'build box'], ['émoji 🚢 ok', 'émoji 🚢 ok'], ['', `${SHELL} 1`]]) {
      na = a.messages.length;
      nb = b.messages.length;
      b.send({ type: 'rename', session: one.session, name });
      for (const [w, n] of [[a, na], [b, nb]]) {
        const list = await waitForList(w, () => true, { from: n, what: `the list after rename to ${JSON.stringify(name)}` });
        assert.deepEqual(names(list.sessions), [expected, `${SHELL} 2`], `after rename to ${JSON.stringify(name)}`);
      }
    }

    // reorder with a permutation: every window gets the new order.
    na = a.messages.length;
    nb = b.messages.length;
    b.send({ type: 'reorder', order: [two.session, one.session] });
    for (const [w, n] of [[a, na], [b, nb]]) {
      const list = await waitForList(w, () => true, { from: n, what: 'the list after reorder' });
      assert.deepEqual(ids(list.sessions), [two.session, one.session]);
    }
    // Anything but a permutation of the live sessions is refused, and changes nothing.
    for (const order of [[], [one.session], [one.session, one.session], [one.session, two.session, 99], [one.session, 99], [two.session, one.session, two.session]]) {
      await refused(b, { type: 'reorder', order }, 'bad_field', [a]);
    }
    // A new window gets the registry's order.
    const c = await openWs(d);
    t.after(() => c.close());
    assert.deepEqual(ids(c.lastSessions), [two.session, one.session]);
  });

  test('rename without a name is refused with bad_field (the field is required)', async (t) => {
    // docs/protocol.md lists `rename` with `session`, `name` (neither optional), and
    // `bad_field` as "a field is missing or of the wrong kind".
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attachedWindow(t, d);
    ws.send({ type: 'rename', session: ws.attached.session, name: 'kept' });
    await waitForList(ws, (l) => l[0]?.name === 'kept');
    await refused(ws, { type: 'rename', session: ws.attached.session }, 'bad_field');
    assert.equal(ws.lastSessions[0].name, 'kept');
  });

  test('ending the attached session lands on the right neighbour, else the left, in tab order', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a, attached: s1 } = await attachedWindow(t, d);
    const started = [];
    for (let i = 0; i < 3; i += 1) {
      const s = await a.newSession();
      assert.equal(s.type, 'attached', JSON.stringify(s));
      t.after(() => killSession(s.pid));
      await a.waitForPrompt(); // each shell is up before it is ended
      started.push(s);
    }
    const [s2, s3, s4] = started;
    const order = [s1.session, s2.session, s3.session, s4.session];
    await waitForList(a, (l) => ids(l).join() === order.join());

    // A second window on s2; ending it from there lands on its right neighbour s3.
    const b = await openWs(d);
    t.after(() => b.close());
    await b.attach({ session: s2.session });
    let nb = b.messages.length;
    b.send({ type: 'end' });
    let exit = await b.waitForMessage('exit', { from: nb, timeout: 15000 });
    assert.equal(exit.session, s2.session);
    assert.equal(exit.next, s3.session, 'right neighbour');
    await waitForList(b, (l) => ids(l).join() === [s1.session, s3.session, s4.session].join(), { from: nb });

    // s4 is last: ending it lands on its left neighbour s3, for both windows on it (a has
    // been on s4 since its last `new`).
    await b.attach({ session: s4.session });
    nb = b.messages.length;
    let na = a.messages.length;
    b.send({ type: 'end' });
    exit = await b.waitForMessage('exit', { from: nb, timeout: 15000 });
    assert.deepEqual([exit.session, exit.next], [s4.session, s3.session], 'left neighbour when there is no right one');
    assert.deepEqual(await a.waitForMessage('exit', { from: na }), exit);

    // Neighbours follow the registry's order, not ids: reorder to [s3, s1], end s3 from a
    // window on it (and the window on s1 is not disturbed).
    b.send({ type: 'reorder', order: [s3.session, s1.session] });
    await waitForList(b, (l) => ids(l).join() === [s3.session, s1.session].join());
    await b.attach({ session: s3.session });
    na = a.messages.length;
    nb = b.messages.length;
    a.send({ type: 'end', session: s3.session }); // ended by another window
    exit = await b.waitForMessage('exit', { from: nb, timeout: 15000 });
    assert.deepEqual([exit.session, exit.next], [s3.session, s1.session]);
    await waitForList(a, (l) => ids(l).join() === String(s1.session), { from: na });
    assert.ok(!a.messages.slice(na).some((m) => m.type === 'exit'), 'a window attached to nothing gets no exit');
  });

  for (const how of ['--max-sessions 2', 'WHARF_MAX_SESSIONS=2']) {
    test(`with ${how} a third \`new\` is refused with limit_reached and starts nothing`, async (t) => {
      const d = how.startsWith('--') ? await startDaemon({ args: ['--max-sessions', '2'] }) : await startDaemon({ env: { WHARF_MAX_SESSIONS: '2' } });
      t.after(() => stopDaemon(d));
      const { ws } = await attachedWindow(t, d);
      const second = await ws.newSession();
      assert.equal(second.type, 'attached', JSON.stringify(second));
      t.after(() => killSession(second.pid));
      await ws.waitForPrompt();
      await waitFor(() => sessionPrograms(d).length === 2, { what: 'two shells' });
      const other = await openWs(d);
      t.after(() => other.close());
      const before = ws.lastSessions;
      for (const w of [ws, other]) {
        const err = await refused(w, { type: 'new' }, 'limit_reached', [w === ws ? other : ws]);
        assert.match(err.message, /\b2\b/, `the message says how many: ${err.message}`);
      }
      assert.deepEqual(sessionPrograms(d).length, 2, 'no third process');
      assert.deepEqual(ws.lastSessions, before);
      assert.equal(ws.attached.session, second.session, 'the refused `new` left the window where it was');
      // Room again once one ends.
      const n = ws.messages.length;
      ws.send({ type: 'end' });
      await ws.waitForMessage('exit', { from: n, timeout: 15000 });
      const third = await other.newSession();
      assert.equal(third.type, 'attached', JSON.stringify(third));
      t.after(() => killSession(third.pid));
      await other.waitForPrompt();
    });
  }
});
