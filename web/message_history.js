// Sent-message history: what the composer sent to each session, oldest first, for Up and
// Down to bring back. It holds what the session received (image tokens already replaced
// by the saved paths), so sending a recalled message again means the same thing even
// though its images are no longer in the draft. At most HISTORY_MAX messages, no
// message twice in a row; kept per session in this browser tab (session_store.js) and
// gone when the session ends.
//
// Recall walks one session's list: Up in an empty box shows the newest message, Up on
// the first line goes older (and stays at the oldest), Down on the last line goes newer,
// and past the newest back to an empty box. Any edit of the box ends the walk: what was
// recalled is then an ordinary draft.
import { sessionStore } from './session_store.js';

const store = sessionStore('wharf.history.');
const HISTORY_MAX = 100;

export function sentMessages(k) {
  const list = store.read(k);
  return Array.isArray(list) ? list.filter((m) => typeof m === 'string') : [];
}

export function rememberSent(k, text) {
  const list = sentMessages(k);
  if (list[list.length - 1] !== text) list.push(text);
  store.write(k, list.slice(-HISTORY_MAX));
}

// `show(text)` puts a recalled message (or '' past the newest) in the box. older and
// newer answer whether the key was the history's; when not, it moves the caret as usual.
export function createRecall(show) {
  let index = null; // position in the list while a walk is on, else null

  function go(to, list) {
    index = to;
    show(to === null ? '' : list[to]);
  }

  return {
    stop() { index = null; },
    older(k, { empty, onFirstLine }) {
      const list = sentMessages(k);
      if (index === null && empty && list.length) {
        go(list.length - 1, list);
        return true;
      }
      if (index === null || !onFirstLine) return false;
      if (index > 0) go(index - 1, list);
      return true;
    },
    newer(k, { onLastLine }) {
      if (index === null || !onLastLine) return false;
      const list = sentMessages(k);
      go(index + 1 < list.length ? index + 1 : null, list);
      return true;
    },
  };
}
