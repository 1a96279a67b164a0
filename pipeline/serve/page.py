"""The live page (``GET /``): the latest findings and the service's counters, refreshed by
polling ``/v1/summary`` and ``/v1/findings`` every two seconds. Self-contained like the
report: its styles and script are inline and it fetches nothing but those two endpoints."""

from __future__ import annotations

POLL_MS = 2000

HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mahjong-audit · live</title>
<style>
body{font:14px/1.4 system-ui,"Noto Sans CJK SC","WenQuanYi Zen Hei",sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em;margin:0 0 .3em} .muted{color:#777}
#counters{display:flex;gap:1em;flex-wrap:wrap;margin:1em 0}
.counter{border:1px solid #ddd;border-radius:6px;padding:.5em .9em;min-width:7em}
.counter b{display:block;font-size:1.5em}
#kinds span{display:inline-block;margin:0 .8em .3em 0;padding:.1em .5em;background:#f3f3f3;border-radius:4px}
table{border-collapse:collapse;width:100%} th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid #eee;vertical-align:top}
th{background:#fafafa} tr.error td.sev{color:#b00020;font-weight:600} tr.warning td.sev{color:#a66300}
td.msg{max-width:40em} #status.failing{color:#b00020}
</style></head>
<body data-polls="0" data-state="starting">
<h1>mahjong-audit · live audit</h1>
<div class="muted">database <span id="db"></span> · since <span id="started"></span> ·
<span id="status">connecting…</span> · updated <span id="updated">never</span></div>
<div id="counters">
<div class="counter">games<b id="c-games">–</b></div>
<div class="counter">hands<b id="c-hands">–</b></div>
<div class="counter">findings<b id="c-findings">–</b></div>
<div class="counter">rejected<b id="c-rejected">–</b></div>
<div class="counter">queue<b id="c-queue">–</b></div>
<div class="counter">commits<b id="c-commits">–</b></div>
</div>
<div id="kinds"></div>
<h2>Latest findings</h2>
<table id="findings"><thead><tr><th>received</th><th>game</th><th>hand</th><th>seat</th><th>kind</th>
<th>code</th><th>severity</th><th>message</th></tr></thead><tbody></tbody></table>
<script>
(function(){
  "use strict";
  var every = __POLL_MS__, body = document.body;
  function $(id){ return document.getElementById(id); }
  function text(el, v){ el.textContent = (v === null || v === undefined) ? "" : String(v); }
  function cell(tr, v, cls){ var td = document.createElement("td"); if (cls) td.className = cls; text(td, v); tr.appendChild(td); }
  function get(url){
    return fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"}).then(function(r){
      if (!r.ok) throw new Error(url + ": HTTP " + r.status); return r.json(); });
  }
  function show(summary, page){
    text($("db"), summary.database); text($("started"), summary.started_at.replace("T", " ").slice(0, 19) + " UTC");
    text($("c-games"), summary.games); text($("c-hands"), summary.hands); text($("c-findings"), summary.findings);
    text($("c-rejected"), summary.rejected); text($("c-queue"), summary.queue_depth); text($("c-commits"), summary.commits);
    var kinds = $("kinds"); kinds.textContent = "";
    Object.keys(summary.findings_by_kind).sort().forEach(function(k){
      var s = document.createElement("span"); s.setAttribute("data-kind", k);
      text(s, k + " " + summary.findings_by_kind[k]); kinds.appendChild(s); });
    var tbody = $("findings").tBodies[0], rows = document.createDocumentFragment();
    page.findings.forEach(function(f){
      var tr = document.createElement("tr"); tr.className = f.severity; tr.setAttribute("data-kind", f.kind);
      tr.setAttribute("data-game", f.game_id || "");
      cell(tr, f.received_at ? f.received_at.replace("T", " ").slice(11, 19) : ""); cell(tr, f.game_id);
      cell(tr, f.hand_no); cell(tr, f.seat); cell(tr, f.kind); cell(tr, f.code); cell(tr, f.severity, "sev");
      cell(tr, f.message, "msg"); rows.appendChild(tr); });
    tbody.textContent = ""; tbody.appendChild(rows);
  }
  function poll(){
    Promise.all([get("/v1/summary"), get("/v1/findings?limit=50")]).then(function(got){
      show(got[0], got[1]); text($("status"), "live"); $("status").className = "";
      body.setAttribute("data-state", "live");
    }).catch(function(e){
      text($("status"), "not answering: " + e.message); $("status").className = "failing";
      body.setAttribute("data-state", "failing");
    }).then(function(){
      body.setAttribute("data-polls", String(Number(body.getAttribute("data-polls")) + 1));
      text($("updated"), new Date().toISOString().slice(11, 19) + " UTC");
      setTimeout(poll, every);
    });
  }
  poll();
})();
</script>
</body></html>
""".replace("__POLL_MS__", str(POLL_MS))
