// Runs in every document before the page's own scripts. It makes the headless browser look like a
// normal one and removes the APIs that could open connections outside the egress proxy's view.

export const STEALTH_INIT_SCRIPT = `(() => {
  try { Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true }); } catch {}
  try {
    if (!navigator.languages || navigator.languages.length === 0) {
      Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['en-US', 'en'], configurable: true });
    }
  } catch {}
  // WebRTC can send UDP (STUN/TURN, host candidates) that no HTTP proxy sees: remove it.
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCIceTransport']) {
    try { delete globalThis[name]; } catch {}
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
})();`;
