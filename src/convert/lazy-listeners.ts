// linkedom 0.18.14's EventTarget constructor stores a fresh listener `Map` in a module WeakMap for
// every node it builds (`wm.set(this, new Map)`), although a converted page never has a listener:
// 18 % of conversion CPU, and WeakMap entries are ephemerons the GC must revisit. Here, once at load,
// that WeakMap (caught as the `this` of the constructor's one `set` call) gets an own `set` that
// stores nothing, and EventTarget's three methods are replaced by linkedom's same code over a WeakMap
// filled on the first `addEventListener` (the upstream fix, patches/linkedom+0.18.14.patch, does the
// same inside linkedom). It applies only to the exact class source audited here (a hash of it): any
// other linkedom keeps its own behaviour, and test/convert/lazy-listeners.test.ts fails so the change
// is looked at again.
//
// Re-parenting linkedom's Node class onto a base with an empty constructor (Object.setPrototypeOf)
// was tried first: no Map either, but V8 then built nodes no faster (parse CPU 1.00× stock against
// 0.67× here), so the constructor is left as it is and only its store is emptied.
//
// This module patches the linkedom module instance it imports; every other user of that instance
// in the process sees the same listener semantics, only without the per-node Map.

import { createHash } from 'node:crypto';
import { EventTarget as LinkedomEventTarget } from 'linkedom';

/** SHA-256 of `String(EventTarget)` in linkedom 0.18.14 (ESM and CJS builds are the same text). */
export const AUDITED_EVENT_TARGET = '7c54de30b9f81bd070798156aa9a5992fadc9d6c5a54613ccb7cc76357c1d0ab';

type Listener = ((event: unknown) => void) | { handleEvent(event: unknown): void };
type ListenerOptions = { once?: boolean } | boolean | undefined;
type Listeners = Map<string, Map<Listener, ListenerOptions>>;

interface LinkedomEvent {
  type: string;
  bubbles: boolean;
  eventPhase: number;
  cancelBubble: boolean;
  defaultPrevented: boolean;
  currentTarget?: unknown;
  target?: unknown;
  _path: Array<{ currentTarget: PatchedTarget; target: PatchedTarget }>;
  _stopImmediatePropagationFlag: boolean;
  readonly NONE: number;
  readonly CAPTURING_PHASE: number;
  readonly AT_TARGET: number;
  readonly BUBBLING_PHASE: number;
}

interface PatchedTarget {
  dispatchEvent?: unknown;
  _getParent?: () => PatchedTarget | null;
}

const registry = new WeakMap<object, Listeners>();

function dispatch(event: LinkedomEvent, listener: Listener): boolean {
  if (typeof listener === 'function') listener.call(event.target, event);
  else listener.handleEvent(event);
  return event._stopImmediatePropagationFlag;
}

// linkedom's invokeListeners, reading the lazily filled registry.
function invokeListeners(this: LinkedomEvent, { currentTarget, target }: { currentTarget: PatchedTarget; target: PatchedTarget }) {
  const map = registry.get(currentTarget);
  if (map?.has(this.type)) {
    const listeners = map.get(this.type)!;
    this.eventPhase = currentTarget === target ? this.AT_TARGET : this.BUBBLING_PHASE;
    this.currentTarget = currentTarget;
    this.target = target;
    for (const [listener, options] of listeners) {
      if (options && typeof options === 'object' && options.once) listeners.delete(listener);
      if (dispatch(this, listener)) break;
    }
    delete this.currentTarget;
    delete this.target;
    return this.cancelBubble;
  }
  return undefined;
}

const lazyMethods = {
  addEventListener(this: object, type: string, listener: Listener, options?: ListenerOptions): void {
    let map = registry.get(this);
    if (!map) registry.set(this, (map = new Map()));
    let listeners = map.get(type);
    if (!listeners) map.set(type, (listeners = new Map()));
    listeners.set(listener, options);
  },
  removeEventListener(this: object, type: string, listener: Listener): void {
    const listeners = registry.get(this)?.get(type);
    if (listeners?.delete(listener) && listeners.size === 0) registry.get(this)!.delete(type);
  },
  dispatchEvent(this: PatchedTarget, event: LinkedomEvent): boolean {
    let node: PatchedTarget | null | undefined | false = this;
    event.eventPhase = event.CAPTURING_PHASE;
    while (node) {
      if (node.dispatchEvent) event._path.push({ currentTarget: node, target: this });
      node = event.bubbles && node._getParent?.();
    }
    event._path.some(invokeListeners, event);
    event._path = [];
    event.eventPhase = event.NONE;
    return !event.defaultPrevented;
  },
};

/**
 * linkedom's module-private WeakMap of listener Maps: caught as the `this` of the one
 * `WeakMap.prototype.set` call its EventTarget constructor makes (the audited source does exactly one).
 */
function listenerWeakMap(): WeakMap<object, unknown> | undefined {
  const original = WeakMap.prototype.set;
  let caught: WeakMap<object, unknown> | undefined;
  WeakMap.prototype.set = function (this: WeakMap<object, unknown>, key: object, value: unknown) {
    caught ??= this;
    return original.call(this, key, value);
  };
  try {
    new (LinkedomEventTarget as unknown as new () => object)();
  } finally {
    WeakMap.prototype.set = original;
  }
  return caught;
}

export function eventTargetHash(eventTarget: unknown = LinkedomEventTarget): string {
  return createHash('sha256').update(String(eventTarget)).digest('hex');
}

let applied: boolean | undefined;

/**
 * Applies the lazy-listener change once; true when linkedom's nodes now build no listener Map.
 * False (and nothing changed) for a linkedom whose EventTarget is not the audited one.
 */
export function applyLazyListeners(): boolean {
  if (applied !== undefined) return applied;
  const wm = eventTargetHash() === AUDITED_EVENT_TARGET ? listenerWeakMap() : undefined;
  applied = wm !== undefined;
  if (!wm) return false;
  // The constructor's `wm.set(this, new Map)` now stores nothing (the Map it allocates dies young).
  Object.defineProperty(wm, 'set', { value: () => wm, writable: true, configurable: true, enumerable: false });
  const proto = (LinkedomEventTarget as unknown as { prototype: object }).prototype;
  for (const [name, fn] of Object.entries(lazyMethods))
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  return true;
}

/** True when linkedom's nodes no longer store a listener Map each. */
export function lazyListenersApplied(): boolean {
  return applied === true;
}
