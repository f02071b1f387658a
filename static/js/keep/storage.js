// Where keep.js keeps what is typed: this browser's localStorage, never a server.
//
// Two kinds of record, each a JSON object with the format's number (v: 2) and the time
// it was written (at, milliseconds since the epoch):
// - "lld-keep-cells:<data-keep>": the cells typed into one form, against one sheet
//   version: {v, at, table: <data-keep-table>, version, fields: {name: [values]}};
// - "lld-keep-sending:<data-keep-table>": a submission on its way, kept until it is
//   answered, so that a retry (even after a reload) sends the same idempotency key:
//   {v, at, url, form: <data-keep>, fields: [[name, value], …]}.
//
// Sheets kept before the front end was split into modules used the names "lld-keep:"
// and "lld-keep-pending:" with the same fields and no "v". A phone may still hold some
// after the upgrade: moveOldRecords() renames them once, on the first page that loads
// this module, so that they are restored like any other (docs/live-updates.md, "Nothing
// typed is lost").
//
// Records older than three days are dropped on load.

export const FORMAT = 2;
const CELLS = "lld-keep-cells:";
const SENDING = "lld-keep-sending:";
const OLD_CELLS = "lld-keep:";
const OLD_SENDING = "lld-keep-pending:";
const MAX_AGE = 3 * 24 * 60 * 60 * 1000;

function probe() {
  try {
    const storage = window.localStorage;
    storage.setItem(CELLS + "probe", "1");
    storage.removeItem(CELLS + "probe");
    return storage;
  } catch (error) {
    return null;
  }
}

// null: no storage (a private window's quota, a blocked store), and the forms are plain.
export const store = probe();

export function cellsName(keep) {
  return CELLS + keep;
}

export function sendingName(table) {
  return SENDING + table;
}

export function read(name) {
  try {
    return JSON.parse(store.getItem(name) || "null");
  } catch (error) {
    return null;
  }
}

export function write(name, value) {
  try {
    store.setItem(name, JSON.stringify(Object.assign({ v: FORMAT }, value)));
  } catch (error) {
    // Full: what is typed still reaches the server by the form itself.
  }
}

export function remove(name) {
  store.removeItem(name);
}

function names() {
  const found = [];
  for (let i = 0; i < store.length; i++) {
    const name = store.key(i);
    if (name) found.push(name);
  }
  return found;
}

// Every kept form's cells: [{name, entry}].
export function allCells() {
  return names()
    .filter((name) => name.startsWith(CELLS))
    .map((name) => ({ name, entry: read(name) }))
    .filter((found) => found.entry);
}

// The records of keep.js before the modules, under this format's names. A record already
// kept under the new name (typed after the upgrade) is newer and stays.
export function moveOldRecords() {
  names().forEach((name) => {
    let renamed = null;
    if (name.startsWith(OLD_CELLS)) renamed = CELLS + name.slice(OLD_CELLS.length);
    else if (name.startsWith(OLD_SENDING)) renamed = SENDING + name.slice(OLD_SENDING.length);
    if (renamed === null) return;
    const entry = read(name);
    store.removeItem(name);
    if (entry && !store.getItem(renamed)) write(renamed, entry);
  });
}

export function dropOldRecords() {
  const now = Date.now();
  names().forEach((name) => {
    if (!name.startsWith(CELLS) && !name.startsWith(SENDING)) return;
    const entry = read(name);
    if (!entry || !(now - entry.at < MAX_AGE)) store.removeItem(name);
  });
}

export function newKey() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return window
    .btoa(String.fromCharCode.apply(null, bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
