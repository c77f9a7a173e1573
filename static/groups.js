// An open server's groups, as this phone knows them. A group's own page (its games) is remembered by its address and
// name, and offered again at the server's root, where a tap would otherwise start a second group. The list of games
// on a group's page follows what the other phones start: it is fetched again when the phone comes back to the page
// and every few seconds while it is in sight.
const KEPT = "scorekeeper-groups";
const MOST = 8;
const EVERY = 10000; // ms between two looks at the games, while the page is in sight

function remembered() {
  try {
    const groups = JSON.parse(localStorage.getItem(KEPT) || "[]");
    return Array.isArray(groups) ? groups.filter((group) => group && typeof group.url === "string") : [];
  } catch {
    return []; // storage refused (a private window) or spoilt: nothing remembered
  }
}

function remember(url, name) {
  const groups = [{ url, name }, ...remembered().filter((group) => group.url !== url)].slice(0, MOST);
  try {
    localStorage.setItem(KEPT, JSON.stringify(groups));
  } catch {
    // a phone that keeps nothing simply has nothing to offer at the root
  }
}

function offer(section) {
  const groups = remembered();
  if (!groups.length) return;
  const list = section.querySelector("ul");
  for (const group of groups) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "button big";
    link.href = group.url;
    link.textContent = group.name || section.dataset.unnamed;
    item.append(link);
    list.append(item);
  }
  section.hidden = false;
}

function follow(games) {
  let looking = false;
  async function look() {
    if (looking || document.visibilityState !== "visible") return;
    looking = true;
    try {
      const answer = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = page.getElementById(games.id);
      if (fresh && fresh.innerHTML !== games.innerHTML) games.innerHTML = fresh.innerHTML;
    } catch {
      // no network: the list stays as it was, and the next look tries again
    } finally {
      looking = false;
    }
  }
  document.addEventListener("visibilitychange", look);
  setInterval(look, EVERY);
}

const mine = document.querySelector("[data-group-url]");
if (mine) remember(mine.dataset.groupUrl, mine.dataset.groupName);
const offered = document.getElementById("your-groups");
if (offered) offer(offered);
const games = document.getElementById("games");
if (games) follow(games);
