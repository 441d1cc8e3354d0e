"""The shipped puzzle sets, data only (README.txt); a package so that the wheel carries them."""
