; Included by electron-builder's nsis installer and its uninstaller (electron-builder.yml:
; nsis.include). Puts bin\, the folder of the `scriptorium` command (bin\scriptorium.cmd), on the
; PATH of whoever the app is installed for: the user, or all users. A folder of its own, as VS Code's
; bin\code.cmd: in the installation folder, Windows would find Scriptorium.exe (the windowed app)
; before scriptorium.cmd, since it tries .EXE before .CMD, and a console neither waits for a windowed
; program nor sees its exit code. The uninstaller takes the folder off the PATH again, unless it
; runs for an update, whose installer puts it back at once.
;
; Windows keeps the PATH in the registry: HKCU\Environment for one user, the Session Manager's
; Environment for all. The value is edited as it is stored (REG_EXPAND_SZ, its %VARIABLES% left
; unexpanded), one entry at a time, and never written from a value NSIS could not read whole (an
; NSIS string holds at most NSIS_MAX_STRLEN characters): the installer then says to add the folder
; by hand (README.md, Install) and changes nothing.

!include "LogicLib.nsh"
!include "WinMessages.nsh"

; Where the PATH of one user, and of all users, is kept.
!define SCRIPTORIUM_USER_ENVIRONMENT "Environment"
!define SCRIPTORIUM_MACHINE_ENVIRONMENT "SYSTEM\CurrentControlSet\Control\Session Manager\Environment"

; The same variables in the installer and the uninstaller (each is compiled on its own, and a
; variable one of them never uses would be a warning, which electron-builder makes an error).
Var /GLOBAL scriptoriumBin
Var /GLOBAL scriptoriumPath
Var /GLOBAL scriptoriumReadWhole
Var /GLOBAL scriptoriumRest
Var /GLOBAL scriptoriumEntry
Var /GLOBAL scriptoriumKept
Var /GLOBAL scriptoriumFound
Var /GLOBAL scriptoriumLength

; Reads the PATH kept in ROOT\KEY into $scriptoriumPath. $scriptoriumReadWhole is "yes" when it was
; read whole or is not there at all (then empty), "no" when it is there but too long to read whole.
!macro scriptoriumReadPath ROOT KEY
  StrCpy $scriptoriumReadWhole "yes"
  ClearErrors
  ReadRegStr $scriptoriumPath ${ROOT} "${KEY}" "Path"
  ${If} ${Errors}
    ; Absent, or present but longer than a string holds: EnumRegValue tells the two apart.
    StrCpy $scriptoriumPath ""
    StrCpy $scriptoriumLength 0
    ${Do}
      ClearErrors
      EnumRegValue $scriptoriumEntry ${ROOT} "${KEY}" $scriptoriumLength
      ${If} ${Errors}
      ${OrIf} $scriptoriumEntry == ""
        ${ExitDo}
      ${EndIf}
      ${If} $scriptoriumEntry == "Path"
        StrCpy $scriptoriumReadWhole "no"
        ${ExitDo}
      ${EndIf}
      IntOp $scriptoriumLength $scriptoriumLength + 1
    ${Loop}
  ${EndIf}
!macroend

; Goes through the entries of $scriptoriumPath (separated by ";"): $scriptoriumKept gets every entry
; but bin\ (compared without regard to case, as Windows does), $scriptoriumFound "yes" when bin\
; was among them.
!macro scriptoriumSplitPath
  StrCpy $scriptoriumRest $scriptoriumPath
  StrCpy $scriptoriumKept ""
  StrCpy $scriptoriumFound "no"
  ${DoWhile} $scriptoriumRest != ""
    ; The entry is what comes before the first ";" of the rest.
    StrCpy $scriptoriumLength 0
    ${Do}
      StrCpy $scriptoriumEntry $scriptoriumRest 1 $scriptoriumLength
      ${If} $scriptoriumEntry == ";"
      ${OrIf} $scriptoriumEntry == ""
        ${ExitDo}
      ${EndIf}
      IntOp $scriptoriumLength $scriptoriumLength + 1
    ${Loop}
    StrCpy $scriptoriumEntry $scriptoriumRest $scriptoriumLength
    IntOp $scriptoriumLength $scriptoriumLength + 1
    StrCpy $scriptoriumRest $scriptoriumRest "" $scriptoriumLength
    ${If} $scriptoriumEntry == $scriptoriumBin
    ${OrIf} $scriptoriumEntry == "$scriptoriumBin\"
      StrCpy $scriptoriumFound "yes"
    ${ElseIf} $scriptoriumEntry != ""
      ${If} $scriptoriumKept == ""
        StrCpy $scriptoriumKept $scriptoriumEntry
      ${Else}
        StrCpy $scriptoriumKept "$scriptoriumKept;$scriptoriumEntry"
      ${EndIf}
    ${EndIf}
  ${Loop}
!macroend

!macro scriptoriumAddToPath ROOT KEY
  !insertmacro scriptoriumReadPath ${ROOT} "${KEY}"
  ${If} $scriptoriumReadWhole != "yes"
    DetailPrint "The PATH is too long for the installer to change safely: add $scriptoriumBin to it yourself to type scriptorium in a console (README.md, Install)."
  ${Else}
    !insertmacro scriptoriumSplitPath
    ${If} $scriptoriumFound != "yes"
      ; Measured in parts: a string longer than NSIS holds would be cut before it is measured.
      StrLen $scriptoriumLength $scriptoriumPath
      StrLen $scriptoriumEntry $scriptoriumBin
      IntOp $scriptoriumLength $scriptoriumLength + $scriptoriumEntry
      IntOp $scriptoriumLength $scriptoriumLength + 2
      ${If} $scriptoriumLength >= ${NSIS_MAX_STRLEN}
        DetailPrint "The PATH is too long for the installer to change safely: add $scriptoriumBin to it yourself to type scriptorium in a console (README.md, Install)."
      ${Else}
        ${If} $scriptoriumPath == ""
          StrCpy $scriptoriumPath $scriptoriumBin
        ${Else}
          ; Kept as it was, the new entry after a ";" (none doubled).
          StrCpy $scriptoriumEntry $scriptoriumPath 1 -1
          ${If} $scriptoriumEntry == ";"
            StrCpy $scriptoriumPath "$scriptoriumPath$scriptoriumBin"
          ${Else}
            StrCpy $scriptoriumPath "$scriptoriumPath;$scriptoriumBin"
          ${EndIf}
        ${EndIf}
        WriteRegExpandStr ${ROOT} "${KEY}" "Path" $scriptoriumPath
        ; Consoles opened from now on (through Explorer) see the new PATH.
        SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
      ${EndIf}
    ${EndIf}
  ${EndIf}
!macroend

!macro scriptoriumRemoveFromPath ROOT KEY
  !insertmacro scriptoriumReadPath ${ROOT} "${KEY}"
  ${If} $scriptoriumReadWhole == "yes"
    !insertmacro scriptoriumSplitPath
    ${If} $scriptoriumFound == "yes"
      WriteRegExpandStr ${ROOT} "${KEY}" "Path" $scriptoriumKept
      SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
    ${EndIf}
  ${EndIf}
!macroend

!macro customInstall
  StrCpy $scriptoriumBin "$INSTDIR\bin"
  ${If} $installMode == "all"
    !insertmacro scriptoriumAddToPath HKLM "${SCRIPTORIUM_MACHINE_ENVIRONMENT}"
  ${Else}
    !insertmacro scriptoriumAddToPath HKCU "${SCRIPTORIUM_USER_ENVIRONMENT}"
  ${EndIf}
!macroend

!macro customUnInstall
  ${IfNot} ${isUpdated}
    StrCpy $scriptoriumBin "$INSTDIR\bin"
    ${If} $installMode == "all"
      !insertmacro scriptoriumRemoveFromPath HKLM "${SCRIPTORIUM_MACHINE_ENVIRONMENT}"
    ${Else}
      !insertmacro scriptoriumRemoveFromPath HKCU "${SCRIPTORIUM_USER_ENVIRONMENT}"
    ${EndIf}
  ${EndIf}
!macroend
