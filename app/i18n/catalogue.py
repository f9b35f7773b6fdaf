"""Keep the catalogue in step with the sources: extract every msgid (babel.cfg; keywords
``_``, ``gettext``, ``ngettext``, ``N_`` and JavaScript's ``t``) and update the .po files.

    python -m app.i18n.catalogue      # rewrite messages.pot, update de/en messages.po

The same as ``pybabel extract -F babel.cfg -k N_ -k t -o app/i18n/messages.pot . `` followed
by ``pybabel update -i app/i18n/messages.pot -d app/i18n``. New entries arrive untranslated
(tests/test_i18n.py fails until German has them); entries nobody uses any more are dropped.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from app.i18n import HERE, LANGUAGES, po_path

ROOT = HERE.parent.parent
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None}


def extract(root: Path = ROOT) -> Catalog:
    """Every msgid of the sources under ``root`` as a template catalogue (with locations)."""
    with (root / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp, str(root / "babel.cfg"))
    template = Catalog(project="Doppelrunde", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def update() -> None:
    """Write messages.pot and merge it into each language's messages.po."""
    template = extract()
    with (HERE / "messages.pot").open("wb") as fp:
        write_po(fp, template, width=0, sort_by_file=True)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as fp:
                catalog = read_po(fp, locale=lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, project="Doppelrunde")
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as fp:
            write_po(fp, catalog, width=0, sort_by_file=True, ignore_obsolete=True)


if __name__ == "__main__":
    update()
