@echo off
rem `scriptorium` in a console (cmd or PowerShell): runs the app beside this script with the
rem arguments given, waits for it (a console does not wait for a windowed program by itself) and
rem passes its exit code on. Its output comes to this console.
"%~dp0Scriptorium.exe" %*
exit /b %ERRORLEVEL%
