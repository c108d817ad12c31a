/* Attention Lab: where the lab's value plane puts its marks, in the browser (and under Node).
 *
 * The same rules as attnlab.site.plane in Python, which draws the guide's
 * static planes and this plane's axes: map data to pixels through the frame
 * the page carries, take the convex hull of the visible values, size each
 * value's dot by its weight and place the labels. tests/test_value_plane_js.py
 * runs both on the same results and requires the same pixels.
 *
 * Needs attnlab.js (for fmt). Classic script, no dependencies. MIT licence.
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

  var api = { toPixels: toPixels, hull: hull, geometry: geometry };
  root.attnlabPlane = api;
  if (typeof exports === "object") {
    Object.keys(api).forEach(function (name) { exports[name] = api[name]; });
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
