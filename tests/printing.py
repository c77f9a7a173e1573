"""Print pages to PDF in Chromium and read the PDFs back with poppler's tools."""

import shutil
import subprocess
from pathlib import Path

import pytest


def need_poppler() -> None:
    if not shutil.which("pdfinfo"):
        pytest.fail("no pdfinfo: install poppler-utils (`apt-get install poppler-utils`)")


def print_pdf(page, url: str, path: Path) -> Path:
    page.goto(url)
    page.pdf(path=str(path), prefer_css_page_size=True)
    return path


def pdf_info(path: Path) -> dict[str, str]:
    lines = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in lines)}


def pdf_text(path: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(["pdftotext", "-layout", *pages, str(path), "-"], capture_output=True, text=True).stdout
