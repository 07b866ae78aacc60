#!/bin/sh
# The deb's postrm and the rpm's %postun (electron-builder.yml: deb.afterRemove, rpm.afterRemove).
# A template: electron-builder fills in the executable's name and the product's folder where the
# dollar-brace macros stand, so this script names its own variables without braces.
#
# Both package managers run it when a newer version replaces this one, not only when the package
# goes. rpm -U runs the old version's %postun last, after the new version's %post linked
# /usr/bin/${executable} and installed the AppArmor profile, with $1 the number of versions left
# installed (1); dpkg runs the old postrm with "upgrade". Taking the link and the profile away then
# would leave the new version without its command. So only a package that goes (rpm: 0; dpkg:
# remove or purge, or abort-install when its installation failed) takes away what its
# after-install script added.
case "$1" in
  0 | remove | purge | abort-install) ;;
  *) exit 0 ;;
esac

# The command on the PATH: the alternative the after-install script registered, or its plain link.
if command -v update-alternatives > /dev/null 2>&1; then
  update-alternatives --remove '${executable}' '/opt/${sanitizedProductName}/${executable}' || true
else
  rm -f '/usr/bin/${executable}'
fi

# The AppArmor profile: unloaded from the running kernel first (never inside a chroot, where the
# kernel is not the installed system's), then deleted.
profile='/etc/apparmor.d/${executable}'
if [ -f "$profile" ]; then
  if apparmor_status --enabled > /dev/null 2>&1 && command -v apparmor_parser > /dev/null 2>&1 &&
    ! { [ -x '/usr/bin/ischroot' ] && '/usr/bin/ischroot'; }; then
    apparmor_parser --remove "$profile" || true
  fi
  rm -f "$profile"
fi
exit 0
