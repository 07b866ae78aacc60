@echo off
rem `scriptorium` in a console (cmd or PowerShell): the installer puts this folder (bin) on the
rem PATH. It runs the app in the folder above with the arguments given, waits for it (a console
rem does not wait for a windowed program by itself) and passes its exit code on. Its output comes
rem to this console.
"%~dp0..\Scriptorium.exe" %*
exit /b %ERRORLEVEL%
