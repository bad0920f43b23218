/* Client-side term search for the glossary index page. Plain JavaScript, nothing fetched:
   the index is the JSON in <script id="search-data"> written by `rulebase glossary build`.
   Entries: t = title (a term, or a rule's number and title), u = page URL, n = other names,
   h = Hungarian names, e = editions, d = what a rule entry says (rules of the current release). */
(function () {
  "use strict";
  var input = document.getElementById("search");
  var list = document.getElementById("results");
  var data = document.getElementById("search-data");
  if (!input || !list || !data) {
    return;
  }
  var entries = JSON.parse(data.textContent);

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  entries.forEach(function (entry, index) {
    entry.index = index;
    entry.title = fold(entry.t);
    entry.others = entry.n.concat(entry.h).map(fold);
  });

  // 0: title starts with the query, 1: title contains it, 2/3: the same for another name; -1: no match.
  function rank(entry, query) {
    var at = entry.title.indexOf(query);
    if (at === 0) {
      return 0;
    }
    if (at > 0) {
      return 1;
    }
    var best = -1;
    entry.others.forEach(function (name) {
      var pos = name.indexOf(query);
      var score = pos === 0 ? 2 : pos > 0 ? 3 : -1;
      if (score >= 0 && (best < 0 || score < best)) {
        best = score;
      }
    });
    return best;
  }

  function item(entry) {
    var li = document.createElement("li");
    var link = document.createElement("a");
    link.href = entry.u;
    link.textContent = entry.t;
    li.appendChild(link);
    var meta = document.createElement("span");
    meta.className = "meta";
    var extra = entry.h.length ? " · " + entry.h.join(", ") : "";
    meta.textContent = entry.d ? " " + entry.d : " " + entry.e.join(" ") + extra;
    li.appendChild(meta);
    return li;
  }

  function show() {
    var query = fold(input.value.trim());
    list.textContent = "";
    if (!query) {
      return;
    }
    var hits = [];
    entries.forEach(function (entry) {
      var score = rank(entry, query);
      if (score >= 0) {
        hits.push([score, entry.index, entry]);
      }
    });
    hits.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    hits.slice(0, 30).forEach(function (hit) { list.appendChild(item(hit[2])); });
    if (!hits.length) {
      var none = document.createElement("li");
      none.className = "none";
      none.textContent = "No matching term.";
      list.appendChild(none);
    }
  }

  input.addEventListener("input", show);
  input.addEventListener("keydown", function (event) {
    var first = list.querySelector("a");
    if (event.key === "Enter" && first) {
      window.location.href = first.href;
    }
  });
  show();
})();
