"""What an import says when it ends (restore.py): how many games it stored, or why it stopped, in a table's words."""

from dataclasses import dataclass

from flask_babel import ngettext

from . import groups


@dataclass(frozen=True)
class ImportReport:
    imported: list[int]  # ids of the games stored
    already_here: int  # games of the file skipped: stored before (or twice in the file)

    @property
    def message(self) -> str:
        """Imported 3 games; 5 were already here."""
        count, here = len(self.imported), self.already_here
        if not here:
            return str(ngettext("Imported %(num)d game.", "Imported %(num)d games.", count))
        imported = ngettext("Imported %(num)d game", "Imported %(num)d games", count)
        return str(ngettext("%(imported)s; %(num)d was already here.", "%(imported)s; %(num)d were already here.",
                            here, imported=imported))  # fmt: skip


class ImportCutShort(Exception):
    """The database stayed busy partway through an import: the batches before were stored, the rest not."""

    def __init__(self, stored: int) -> None:
        self.stored = stored
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return str(
            ngettext(
                "The database became busy with another change partway through: %(num)d game was imported, the rest "
                "not. Import the same file again in a moment: the games already here are skipped.",
                "The database became busy with another change partway through: %(num)d games were imported, the rest "
                "not. Import the same file again in a moment: the games already here are skipped.",
                self.stored,
            )
        )


class GroupFilled(ImportCutShort):
    """Another import into the group (on another process) filled it partway through this one: the batches before
    were stored, the rest not."""

    @property
    def message(self) -> str:
        return str(
            ngettext(
                "This group keeps %(most)d games at most, and another import filled it meanwhile: %(num)d game of "
                "this file was imported, the rest not.",
                "This group keeps %(most)d games at most, and another import filled it meanwhile: %(num)d games of "
                "this file were imported, the rest not.",
                self.stored,
                most=groups.GAMES_MAX,
            )
        )


class ImportBusy(Exception):
    """An import refused before it began, nothing read or stored: its group's last one is still under way, or the
    server has as many imports under way as it takes."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)
