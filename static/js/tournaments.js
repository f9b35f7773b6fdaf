// The Tournaments page (templates/tournaments.html): live countdowns. The live notices of the
// signed-in person (a tournament starting: "go to table N") come over the socket every page
// opens (static/js/site.js).
import {startClocks} from "./countdown.js";

startClocks();
