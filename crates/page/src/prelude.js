// The DOM a page's scripts see, written over the engine's native calls on `__dom` (which read
// and change the Rust document). Wrappers are made once per node, so a node's expandos and
// listeners persist; events bubble from the target to the document.
(function (N) {
  'use strict';
  const wrappers = new Map();
  function wrap(id) {
    if (id === null || id === undefined) return null;
    let w = wrappers.get(id);
    if (!w) {
      const kind = N.kind(id);
      w = kind === 9 ? new Document(id) : kind === 1 ? new Element(id) : new Text(id);
      wrappers.set(id, w);
    }
    return w;
  }
  const kebab = (name) => name.replace(/[A-Z]/g, (m) => '-' + m.toLowerCase());

  class Event {
    constructor(type, init) {
      Object.assign(this, init || {});
      this.type = type;
      this.bubbles = !!(init && init.bubbles);
      this.defaultPrevented = false;
      this.target = null;
      this.currentTarget = null;
      this.__stopped = false;
    }
    preventDefault() { this.defaultPrevented = true; }
    stopPropagation() { this.__stopped = true; }
  }

  function fire(node, handler, event) {
    try {
      handler.call(node, event);
    } catch (e) {
      N.error(String(e) + (e && e.stack ? '\n' + e.stack : ''));
    }
  }

  function dispatch(target, event) {
    event.target = target;
    const path = [];
    for (let n = target; n; n = n.parentNode) path.push(n);
    for (const node of path) {
      event.currentTarget = node;
      for (const fn of (node.__listeners[event.type] || []).slice()) fire(node, fn, event);
      const attr = node.nodeType === 1 ? node.getAttribute('on' + event.type) : null;
      if (attr !== null) {
        node.__inline = node.__inline || {};
        if (!node.__inline[event.type]) {
          try {
            node.__inline[event.type] = new Function('event', attr);
          } catch (e) {
            N.error(String(e));
            node.__inline[event.type] = () => {};
          }
        }
        fire(node, node.__inline[event.type], event);
      }
      const prop = node['__on_' + event.type];
      if (typeof prop === 'function') fire(node, prop, event);
      if (event.__stopped || !event.bubbles) break;
    }
    return !event.defaultPrevented;
  }

  class Node {
    constructor(id) {
      this.__id = id;
      this.__listeners = {};
    }
    get nodeType() { return N.kind(this.__id); }
    get parentNode() { return wrap(N.parent(this.__id)); }
    get parentElement() {
      const p = this.parentNode;
      return p && p.nodeType === 1 ? p : null;
    }
    get childNodes() { return N.children(this.__id).map(wrap); }
    get firstChild() { return this.childNodes[0] || null; }
    get lastChild() { const c = this.childNodes; return c[c.length - 1] || null; }
    get textContent() { return N.text(this.__id); }
    set textContent(v) { N.setText(this.__id, v === null || v === undefined ? '' : String(v)); }
    appendChild(child) { N.append(this.__id, child.__id); return child; }
    removeChild(child) { N.remove(child.__id); return child; }
    remove() { N.remove(this.__id); }
    addEventListener(type, fn) {
      if (typeof fn !== 'function') return;
      const list = this.__listeners[type] || (this.__listeners[type] = []);
      if (!list.includes(fn)) list.push(fn);
      N.listen(this.__id, type);
    }
    removeEventListener(type, fn) {
      const list = this.__listeners[type] || [];
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    }
    dispatchEvent(event) { return dispatch(this, event); }
  }
  class Text extends Node {
    get nodeValue() { return N.text(this.__id); }
  }
  class ClassList {
    constructor(el) { this.el = el; }
    get __names() { return this.el.className.split(/\s+/).filter(Boolean); }
    contains(name) { return this.__names.includes(name); }
    add(...names) {
      const have = this.__names;
      for (const n of names) if (!have.includes(n)) have.push(n);
      this.el.className = have.join(' ');
    }
    remove(...names) {
      this.el.className = this.__names.filter((n) => !names.includes(n)).join(' ');
    }
    toggle(name) {
      const on = !this.contains(name);
      if (on) this.add(name); else this.remove(name);
      return on;
    }
  }
  function styleOf(id) {
    return new Proxy({}, {
      get(_, p) {
        if (typeof p !== 'string') return undefined;
        if (p === 'setProperty') return (k, v) => N.setStyle(id, k, String(v));
        if (p === 'getPropertyValue') return (k) => N.style(id, k);
        if (p === 'removeProperty') return (k) => N.setStyle(id, k, '');
        return N.style(id, kebab(p));
      },
      set(_, p, v) {
        N.setStyle(id, kebab(String(p)), v === null || v === undefined ? '' : String(v));
        return true;
      },
    });
  }
  class Context2D {
    constructor(canvas) {
      this.canvas = canvas;
      this.__stroke = '#000000';
      this.__fill = '#000000';
      this.lineWidth = 1;
      this.__paths = [];
      N.canvasInit(canvas.__id);
    }
    get strokeStyle() { return this.__stroke; }
    set strokeStyle(v) { if (N.isColor(String(v))) this.__stroke = String(v); }
    get fillStyle() { return this.__fill; }
    set fillStyle(v) { if (N.isColor(String(v))) this.__fill = String(v); }
    beginPath() { this.__paths = []; }
    moveTo(x, y) { this.__paths.push([+x, +y]); }
    lineTo(x, y) {
      if (this.__paths.length === 0) this.__paths.push([]);
      this.__paths[this.__paths.length - 1].push(+x, +y);
    }
    closePath() {
      const p = this.__paths[this.__paths.length - 1];
      if (p && p.length >= 2) p.push(p[0], p[1]);
    }
    stroke() {
      for (const p of this.__paths) N.stroke(this.canvas.__id, p, +this.lineWidth, this.__stroke);
    }
    fillRect(x, y, w, h) { N.fillRect(this.canvas.__id, +x, +y, +w, +h, this.__fill); }
    clearRect(x, y, w, h) { N.clearRect(this.canvas.__id, +x, +y, +w, +h); }
    getImageData(x, y, w, h) {
      return { width: w, height: h, data: N.imageData(this.canvas.__id, x | 0, y | 0, w | 0, h | 0) };
    }
  }
  class Element extends Node {
    get tagName() { return N.tag(this.__id).toUpperCase(); }
    get nodeName() { return this.tagName; }
    get id() { return this.getAttribute('id') || ''; }
    set id(v) { this.setAttribute('id', v); }
    get className() { return this.getAttribute('class') || ''; }
    set className(v) { this.setAttribute('class', v); }
    get classList() { return new ClassList(this); }
    get children() { return this.childNodes.filter((n) => n.nodeType === 1); }
    set innerHTML(v) { N.setHtml(this.__id, String(v)); }
    getAttribute(name) { return N.attr(this.__id, String(name)); }
    setAttribute(name, v) { N.setAttr(this.__id, String(name), String(v)); }
    hasAttribute(name) { return this.getAttribute(name) !== null; }
    get style() { return this.__style || (this.__style = styleOf(this.__id)); }
    get value() { return N.value(this.__id); }
    set value(v) { N.setValue(this.__id, String(v)); }
    get width() { return Number(this.getAttribute('width') || 300); }
    set width(v) { this.setAttribute('width', v); }
    get height() { return Number(this.getAttribute('height') || 150); }
    set height(v) { this.setAttribute('height', v); }
    getContext(kind) {
      if (kind !== '2d' || this.tagName !== 'CANVAS') return null;
      return this.__ctx || (this.__ctx = new Context2D(this));
    }
    getBoundingClientRect() {
      const [x, y, width, height] = N.rect(this.__id);
      return { x, y, left: x, top: y, width, height, right: x + width, bottom: y + height };
    }
    click() { dispatch(this, new Event('click', { bubbles: true })); }
  }
  for (const type of ['click', 'input', 'change', 'mousedown', 'mouseup', 'mousemove',
    'touchstart', 'touchmove', 'touchend']) {
    Object.defineProperty(Node.prototype, 'on' + type, {
      get() { return this['__on_' + type] || null; },
      set(fn) { this['__on_' + type] = fn; N.listen(this.__id, type); },
    });
  }
  class Document extends Node {
    getElementById(id) { return wrap(N.byId(String(id))); }
    createElement(tag) { return wrap(N.create(String(tag))); }
    createTextNode(text) { return wrap(N.createText(String(text))); }
    get body() { return wrap(N.body()); }
    get documentElement() { return this.children[0] || null; }
    get children() { return this.childNodes.filter((n) => n.nodeType === 1); }
    get title() { return N.title(); }
  }

  const log = (...args) => N.log(args.map(String).join(' '));
  globalThis.window = globalThis;
  globalThis.document = wrap(0);
  globalThis.Event = Event;
  globalThis.console = {
    log, info: log, debug: log, warn: log,
    error: (...args) => N.error(args.map(String).join(' ')),
  };

  // What the phone's input reaches: a finger's tap on an element, a finger down, moving and
  // up at client coordinates, and typing that changed a form control's value. A tap is what
  // mobile Chrome dispatches for one: touch events, then the compatibility mouse events, then
  // the click.
  globalThis.__input = function (kind, id, x, y, text) {
    const target = wrap(id);
    const touch = { identifier: 0, clientX: x, clientY: y, pageX: x, pageY: y, target };
    const touchEvent = (type, down) => new Event(type, {
      bubbles: true, touches: down ? [touch] : [], changedTouches: [touch], targetTouches: down ? [touch] : [],
    });
    const mouse = (type) => new Event(type, { bubbles: true, clientX: x, clientY: y, pageX: x, pageY: y, button: 0 });
    switch (kind) {
      case 'tap':
        dispatch(target, touchEvent('touchstart', true));
        dispatch(target, touchEvent('touchend', false));
        dispatch(target, mouse('mousedown'));
        dispatch(target, mouse('mouseup'));
        dispatch(target, mouse('click'));
        break;
      case 'down': dispatch(target, touchEvent('touchstart', true)); break;
      case 'move': dispatch(target, touchEvent('touchmove', true)); break;
      case 'up': dispatch(target, touchEvent('touchend', false)); break;
      case 'text':
        target.value = text;
        dispatch(target, new Event('input', { bubbles: true }));
        break;
    }
  };
})(__dom);
