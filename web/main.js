// Boot order of the page: status first (so the loading state shows at once), then the
// terminal, then the connection that feeds it. Later features (tabs, composer) are
// wired here, each from its own module.
import { createStatus } from './status.js';
import { createTerminalView } from './terminal_view.js';
import { openConnection } from './connection.js';

const status = createStatus(document.getElementById('status'));
const view = createTerminalView(document.getElementById('terminal'));
openConnection({ view, status });
