// What every page of goldrush serve uses: building elements from text, never from HTML, and asking the API.
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

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// A call to the server's JSON API (each page's game under /api/<game>/); an error answer throws an ApiError with the server's message. A POST always
// sends a JSON body (the server refuses any other, so that a page of another site cannot drive it).
async function api(method, path, body, asText = false) {
  if (method === "POST" && body === undefined) body = {};
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch { data = {error: `the server answered ${response.status}`}; }
  if (!response.ok) throw new ApiError(data.error || `the server answered ${response.status}`, response.status);
  if (typeof hideError === "function") hideError();  // the page's error box: an answer clears the last error
  return asText ? text : data;
}

// The Speed control of a page that shows agents moving (a range input "speed", 0 to 4, and "speed-name" beside it):
// the milliseconds a page waits between moves at each value, slowest first, and the word shown for it.
const SPEEDS = [[1800, "slow"], [1100, "normal"], [600, "quick"], [250, "fast"], [0, "instant"]];
function delay() { return SPEEDS[+document.getElementById("speed").value][0]; }

// Keep the word beside the Speed control in step with it.
function nameSpeeds() {
  const control = document.getElementById("speed");
  const show = () => { document.getElementById("speed-name").textContent = SPEEDS[+control.value][1]; };
  control.addEventListener("input", show); show();
}
