"""The tournament documents (MTR, IPG, JAR and the digital MTR and IPG): readers for their HTML
(webpage.py; pdfpage.py for HTML converted from the PDF), Markdown and plain text (plain.py), the
sections they number (sections.py), their dates (dating.py), one file (release.py), the bundled
archive (archive.py), each document's releases as versions with their lineage (timeline.py) and
their references to the Comprehensive Rules and each other by date (links.py)."""
