// How the page proves who it is to the daemon's HTTP API. A browser that was paired
// (docs/remote.md, "Pairing a phone") holds a device cookie the browser sends by itself
// (HttpOnly: no script here ever sees it); a page opened with the key in its address
// before the daemon traded it for a cookie, or a daemon without devices, sends the key
// as X-Wharf-Key. The header goes only when there is a key: an empty one would be a
// wrong key, and the daemon lets an explicit key decide over the cookie.
export function keyHeaders(key, extra = {}) {
  return key ? { ...extra, 'X-Wharf-Key': key } : { ...extra };
}
