// What both pages of goldrush serve (Gold's and Gold Rush's) use: building elements from text, never from HTML.
"use strict";
// An element with attributes (a "data-x" key sets a data attribute, "class" the class) and children (text or nodes).
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.map((child) => (child instanceof Node ? child : document.createTextNode(String(child)))));
  return node;
}
