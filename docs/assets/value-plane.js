/* Attention Lab: the lab's value plane, drawn in the browser (its geometry also runs under Node).
 *
 * The axes and the frame come from the build (attnlab.site.plane.live_plane,
 * in the lab's <template>); this script clones them and, for every result,
 * places the marks by the same rules as attnlab.site.plane, which draws the
 * guide's static planes: map data to pixels through the frame, take the
 * convex hull of the visible values, size each value's dot by its weight and
 * place the labels. tests/test_value_plane_js.py runs both on the same
 * results and requires the same pixels.
 *
 * widgets.lab() loads this script with the lab, so only pages with a lab
 * fetch it; lab-ui.js starts the plane. Needs attnlab.js (for fmt). Classic
 * script, no dependencies. MIT licence.
 */
(function (root) {
  "use strict";

  /** The pixel position of a data point (y grows upwards in the data, downwards on screen). */
  function toPixels(frame, point) {
    return [frame.left + (point[0] - frame.x_low) / (frame.x_high - frame.x_low) * frame.width,
            frame.top + (frame.y_high - point[1]) / (frame.y_high - frame.y_low) * frame.height];
  }

  function cross(o, a, b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  }

  /** Corners of the convex hull of points (Andrew's monotone chain), as plane.hull returns them. */
  function hull(points) {
    var seen = {};
    var ordered = points.filter(function (p) {
      var key = p[0] + "," + p[1];
      return seen[key] ? false : (seen[key] = true);
    }).sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (ordered.length <= 2) { return ordered; }
    function half(list) {
      var chain = [];
      list.forEach(function (p) {
        while (chain.length >= 2 && cross(chain[chain.length - 2], chain[chain.length - 1], p) <= 0) { chain.pop(); }
        chain.push(p);
      });
      return chain;
    }
    var corners = half(ordered).slice(0, -1).concat(half(ordered.slice().reverse()).slice(0, -1));
    return corners.length > 1 ? corners : ordered.slice(0, 1);
  }

  function distance(a, b) {
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }

  function radius(weight) {
    return 4 + 9 * Math.sqrt(weight);
  }

  /** A label gap beside point, on the side away from centre, flipped rather than cut off. */
  function labelPlace(point, centre, gap, words, frame) {
    var font = frame.font;
    var width = 0.6 * font * words.length;
    var leftSide = point[0] < centre[0];
    if (leftSide && point[0] - gap - width < 0) {
      leftSide = false;
    } else if (!leftSide && point[0] + gap + width > frame.picture_width) {
      leftSide = true;
    }
    var below = point[1] >= centre[1];
    return { text: words, x: leftSide ? point[0] - gap : point[0] + gap, y: point[1] + (below ? font + 2 : -4),
             anchor: leftSide ? "end" : "start", below: below, width: width, height: font + 2 };
  }

  function span(label) {
    return label.anchor === "end" ? [label.x - label.width, label.x] : [label.x, label.x + label.width];
  }

  function overlap(a, b) {
    var sa = span(a), sb = span(b);
    return sa[0] < sb[1] && sb[0] < sa[1] && Math.abs(a.y - b.y) < a.height;
  }

  /** The labels in order, each moved a line further from the centre while it overlaps an earlier one. */
  function separate(labels) {
    var placed = [];
    labels.forEach(function (label) {
      var moved = Object.assign({}, label);
      for (var k = 0; k < labels.length; k += 1) {
        if (!placed.some(function (other) { return overlap(moved, other); })) { break; }
        moved.y += moved.below ? moved.height : -moved.height;
      }
      placed.push(moved);
    });
    return placed;
  }

  /** Every pixel of the plane for one attnlab.compute result: values, radii, hull, output, labels (output's first). */
  function geometry(result, frame, tokens) {
    var fmt = root.attnlab.fmt;
    var values = result.values.map(function (v) { return toPixels(frame, v); });
    var centre = [values.reduce(function (s, p) { return s + p[0]; }, 0) / values.length,
                  values.reduce(function (s, p) { return s + p[1]; }, 0) / values.length];
    var output = toPixels(frame, result.output);
    var radii = result.weights.map(function (w, j) { return result.visible[j] ? radius(w) : 4.0; });
    var nearest = values.reduce(function (best, p) {
      return distance(p, output) < distance(best, output) ? p : best;
    });
    var labels = [labelPlace(output, nearest, 9, "output", frame)].concat(values.map(function (p, j) {
      var words = result.visible[j] ? tokens[j] + " " + fmt(result.weights[j]) : tokens[j] + " blocked";
      return labelPlace(p, centre, radii[j] + 4, words, frame);
    }));
    return {
      values: values,
      radii: radii,
      hull: hull(values.filter(function (_, j) { return result.visible[j]; })),
      output: output,
      labels: separate(labels),
    };
  }

  var SVG = "http://www.w3.org/2000/svg";

  function mark(tag, attributes, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function px(x) {
    return x.toFixed(1);
  }

  /** The plane in container's lab from its template, ids made unique with prefix, with a draw(result)
   *  method; null without a template or when values are not two numbers wide (a plane has two axes). */
  function start(container, prefix, toy) {
    var template = container.querySelector("template.attnlab-plane-template");
    var home = container.querySelector(".attnlab-pictures");
    if (!template || !home || toy.w_v[0].length !== 2) { return null; }
    var svg = template.content.querySelector("svg").cloneNode(true);
    ["title", "desc"].forEach(function (part) { svg.querySelector(part).id = prefix + "-plane-" + part; });
    svg.setAttribute("aria-labelledby", prefix + "-plane-title");
    svg.setAttribute("aria-describedby", prefix + "-plane-desc");
    var figure = document.createElement("figure");
    figure.className = "attnlab-figure attnlab-live-plane";
    figure.setAttribute("data-testid", "plane");
    figure.appendChild(svg);
    home.appendChild(figure);
    var frame = JSON.parse(template.getAttribute("data-frame"));
    var marks = svg.querySelector("[data-marks]");

    /** Redraw the marks for one result: hull, values sized by weight (blocked ones hollow), output, labels. */
    function draw(r) {
      var g = geometry(r, frame, toy.tokens);
      var o = g.output;
      var drawn = [mark("polygon", { points: g.hull.map(function (p) { return px(p[0]) + "," + px(p[1]); }).join(" "),
                                     "class": "attnlab-plane-hull" })];
      g.values.forEach(function (p, j) {
        drawn.push(mark("circle", { cx: px(p[0]), cy: px(p[1]), r: px(g.radii[j]), "data-testid": "plane-value-" + j,
                                    "class": "attnlab-plane-value" + (r.visible[j] ? "" : " attnlab-plane-blocked") }));
      });
      drawn.push(mark("path", { d: "M" + px(o[0]) + "," + px(o[1] - 7) + " L" + px(o[0] + 7) + "," + px(o[1]) +
                                   " L" + px(o[0]) + "," + px(o[1] + 7) + " L" + px(o[0] - 7) + "," + px(o[1]) + " z",
                                "class": "attnlab-plane-output", "data-testid": "plane-output" }));
      g.labels.forEach(function (label) {
        var attributes = { x: px(label.x), y: px(label.y), "font-size": frame.font };
        if (label.anchor === "end") { attributes["text-anchor"] = "end"; }
        drawn.push(mark("text", attributes, label.text));
      });
      marks.replaceChildren.apply(marks, drawn);
    }

    return { draw: draw };
  }

  var api = { toPixels: toPixels, hull: hull, geometry: geometry, start: start };
  root.attnlabPlane = api;
  if (typeof exports === "object") {
    Object.keys(api).forEach(function (name) { exports[name] = api[name]; });
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
